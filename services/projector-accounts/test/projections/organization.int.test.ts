// The organization and provider projections' SQL against the real Postgres: after each event, the
// state the reader loads is the state the aggregates' `evolve` says (rejections change nothing), and
// a provider pointed at another issuer loses the sign-ins linked through it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { organization, provider, type AccountEvent, type OrganizationAuthState } from '@llm/account-model';
import { loadOrganizationAuthState } from '@llm/accounts-read';
import type { ProviderInfo } from '@llm/events';
import { ev as event, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

const ev = (type: Parameters<typeof event>[0], payload: Parameters<typeof event>[1], expectedVersion = 0): AccountEvent => event(type, payload, { expectedVersion });

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const normal = (s: OrganizationAuthState) => ({ ...s, providers: [...s.providers].sort((a, b) => a.id.localeCompare(b.id)) });

describe('organization and provider projections (Postgres)', () => {
  it('store what evolve says, event by event', async () => {
    const hex = randomBytes(4).toString('hex');
    const [userId, orgId, wsId, projectId, p1, p2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const [provisioned] = await db.apply(ev('accounts.account.provisioned', {
      user: { id: userId, email: `${hex}@x.org`, name: '', username: hex }, organization: { id: orgId, name: 'Acme', slug: `acme-${hex}` },
      workspace: { id: wsId, name: 'W', slug: 'w' }, project: { id: projectId, name: 'P', slug: 'p' }, api_key: null,
    }));
    expect(provisioned).toEqual({ status: 'applied' });
    const info = (over: Partial<ProviderInfo> = {}): ProviderInfo => ({
      provider_id: p1, organization_id: orgId, slug: 'okta', name: '', description: '', flags_json: '{"is_valid":false,"is_active":false}',
      issuer_url: 'https://idp.example.com', client_id: 'c', client_secret_sealed: 'v1.k.x', scopes: ['openid'], extra_json: '{}', ...over,
    });
    const tested = (id: string, passed: boolean, v = 0) => ev('accounts.provider.tested', { provider_id: id, organization_id: orgId, passed, detail: '' }, v);
    const orgUpdate = (flags: object, v = 0) => ev('accounts.organization.updated', { organization_id: orgId, name: 'Acme 2', description: 'd', flags_json: JSON.stringify(flags) }, v);
    await db.pool.query(`INSERT INTO user_identities (user_id, method, subject, issuer, created_at, last_signed_in_at) VALUES ($1, $2, 's', 'https://idp.example.com', now(), now())`,
      [userId, `sso:acme-${hex}:okta`]);

    const history: AccountEvent[] = [
      orgUpdate({ allow_sso: true }),                               // rejected: no live provider
      ev('accounts.provider.created', { provider: info() }),
      ev('accounts.provider.created', { provider: info({ provider_id: p2 }) }), // rejected: slug taken
      ev('accounts.provider.created', { provider: info({ provider_id: p2, slug: 'two' }) }),
      tested(p1, true, 1),
      orgUpdate({ allow_sso: true, allow_email: true }, 1),
      ev('accounts.provider.deleted', { provider_id: p1, organization_id: orgId }), // rejected: SSO's last live provider
      tested(p2, true, 1),
      ev('accounts.provider.updated', { provider: info({ issuer_url: 'https://elsewhere.example.com', flags_json: '{"is_valid":true,"is_active":true}' }) }, 2),
      tested(p1, true, 2),                                            // rejected: moved since (version 3 now)
      ev('accounts.provider.deleted', { provider_id: p2, organization_id: orgId }), // rejected: p2 is now the last live one
      orgUpdate({ allow_sso: false, allow_email: true }, 1),          // rejected: stale organization version
    ];
    let expected = await loadOrganizationAuthState(db.pool, orgId);
    const verdicts: string[] = [];
    for (const e of history) {
      const agg = e.type === 'accounts.organization.updated' ? organization : provider;
      const decision = agg.decide(e as never, expected);
      const [outcome] = await db.apply(e);
      expect(outcome).toEqual(decision.status === 'accepted' ? { status: 'applied' } : decision);
      verdicts.push(decision.status === 'accepted' ? 'ok' : decision.code);
      if (decision.status === 'accepted') expected = agg.evolve(expected, e as never);
      expect(normal(await loadOrganizationAuthState(db.pool, orgId))).toEqual(normal(expected));
    }
    expect(verdicts).toEqual(['organization_flags_invalid', 'ok', 'provider_slug_exists', 'ok', 'ok', 'ok', 'sso_last_provider', 'ok', 'ok', 'provider_changed', 'sso_last_provider', 'organization_changed']);
    expect(expected.providers.find((p) => p.id === p1)).toMatchObject({ clientSecretSealed: '', issuerUrl: 'https://elsewhere.example.com', flags: { is_active: false } });
    // The identity linked through the provider before it moved is gone.
    expect((await db.pool.query('SELECT 1 FROM user_identities WHERE user_id = $1', [userId])).rowCount).toBe(0);
  });
});
