// The organization and provider projections' SQL against the real Postgres: after each event, the
// state the loader returns for it (the organization's version and flags, each provider's version,
// flags, endpoints and sealed secret) is written out (rejections change nothing), and a provider
// pointed at another issuer loses its secret, its test and the sign-ins linked through it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AccountEvent, Flags, OrganizationAuthState, ProviderState } from '@llm/account-model';
import type { ProviderInfo } from '@llm/events';
import { ev as event, openProjectionDb, type ProjectionDb, type Step } from '../support/projection-db.ts';

const ev = (type: Parameters<typeof event>[0], payload: Parameters<typeof event>[1], expectedVersion = 0): AccountEvent => event(type, payload, { expectedVersion });

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const sorted = ({ verdict, after }: Step<'organization' | 'provider'>) => ({ verdict, after: { ...after, providers: [...after.providers].sort((a, b) => a.id.localeCompare(b.id)) } });

describe('organization and provider projections (Postgres)', () => {
  it('given an organization, when providers are created, tested, moved, resealed and deleted and SSO is turned on, then the loader returns each version and flags', async () => {
    const hex = randomBytes(4).toString('hex');
    const [userId, orgId, wsId, projectId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const [p1, p2] = [randomUUID(), randomUUID()].sort() as [string, string];
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

    const off = { is_valid: false, is_active: false };
    const live = { is_valid: true, is_active: true };
    const idp = (id: string, slug: string, version: number, flags: Flags, issuerUrl = 'https://idp.example.com', clientSecretSealed = 'v1.k.x'): ProviderState =>
      ({ id, slug, version, flags, issuerUrl, extra: {}, clientSecretSealed });
    const state = (version: number, flags: Flags, ...providers: ProviderState[]): OrganizationAuthState =>
      ({ organization: { id: orgId, slug: `acme-${hex}`, version, flags }, providers, verifiedDomains: 0 });
    const sso = { allow_sso: true, allow_email: true };
    const moved = idp(p1, 'okta', 3, off, 'https://elsewhere.example.com', '');

    // Each event, its verdict, and the organization's state the loader returns afterwards (p1 sorts before p2).
    const steps: Array<[AccountEvent, string, OrganizationAuthState]> = [
      [orgUpdate({ allow_sso: true }), 'organization_flags_invalid', state(1, {})],                 // no live provider
      [ev('accounts.provider.created', { provider: info() }), 'ok', state(1, {}, idp(p1, 'okta', 1, off))],
      [ev('accounts.provider.created', { provider: info({ provider_id: p2 }) }), 'provider_slug_exists', state(1, {}, idp(p1, 'okta', 1, off))],
      [ev('accounts.provider.created', { provider: info({ provider_id: p2, slug: 'two' }) }), 'ok', state(1, {}, idp(p1, 'okta', 1, off), idp(p2, 'two', 1, off))],
      [tested(p1, true, 1), 'ok', state(1, {}, idp(p1, 'okta', 2, live), idp(p2, 'two', 1, off))],
      [orgUpdate(sso, 1), 'ok', state(2, sso, idp(p1, 'okta', 2, live), idp(p2, 'two', 1, off))],
      [ev('accounts.provider.deleted', { provider_id: p1, organization_id: orgId }), 'sso_last_provider', state(2, sso, idp(p1, 'okta', 2, live), idp(p2, 'two', 1, off))],
      [tested(p2, true, 1), 'ok', state(2, sso, idp(p1, 'okta', 2, live), idp(p2, 'two', 2, live))],
      // Pointed elsewhere: untested again, and the secret carried over by the command is dropped.
      [ev('accounts.provider.updated', { provider: info({ issuer_url: 'https://elsewhere.example.com', flags_json: '{"is_valid":true,"is_active":true}' }) }, 2), 'ok',
        state(2, sso, moved, idp(p2, 'two', 2, live))],
      [tested(p1, true, 2), 'provider_changed', state(2, sso, moved, idp(p2, 'two', 2, live))],  // moved since (version 3 now)
      [ev('accounts.provider.deleted', { provider_id: p2, organization_id: orgId }), 'sso_last_provider', state(2, sso, moved, idp(p2, 'two', 2, live))],
      [orgUpdate({ allow_sso: false, allow_email: true }, 1), 'organization_changed', state(2, sso, moved, idp(p2, 'two', 2, live))],
      [ev('accounts.provider.secret_resealed', { provider_id: p2, organization_id: orgId, client_secret_sealed: 'v2.k.y' }, 2), 'ok',
        state(2, sso, moved, idp(p2, 'two', 3, live, 'https://idp.example.com', 'v2.k.y'))],
      [ev('accounts.provider.deleted', { provider_id: p1, organization_id: orgId }), 'ok', state(2, sso, idp(p2, 'two', 3, live, 'https://idp.example.com', 'v2.k.y'))],
    ];
    for (const [i, [e, verdict, after]] of steps.entries()) {
      const name = e.type === 'accounts.organization.updated' ? 'organization' : 'provider';
      expect(sorted(await db.step(name, e)), `step ${i}`).toEqual({ verdict, after });
    }
    // The identity linked through the provider before it moved is gone.
    expect((await db.pool.query('SELECT 1 FROM user_identities WHERE user_id = $1', [userId])).rowCount).toBe(0);
  });
});
