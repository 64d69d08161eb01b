// Given/when/then tests of the organization-auth projection: versions, provider slugs, the rules
// tying SSO to an active, valid provider, and what a provider loses when it moves to another issuer.
import { describe, expect, it } from 'vitest';
import type { DecodedEvent, EventPayloads, ProviderInfo } from '@llm/events';
import {
  LAST_PROVIDER, NO_ACTIVE_PROVIDER, projectOrganizationAuthEvent, type OrganizationAuthEvent, type OrganizationAuthFacts,
} from '../src/domain/organization-auth-projection.ts';

const ORG = '00000000-0000-4000-8000-00000000000a';
const P1 = '00000000-0000-4000-8000-000000000001';
const P2 = '00000000-0000-4000-8000-000000000002';

function ev<T extends OrganizationAuthEvent['type']>(type: T, payload: EventPayloads[T], expectedVersion = 0): DecodedEvent<T> {
  return { eventId: 'e', type, schemaVersion: 1, projectId: '', organizationId: ORG, timeUs: 1_700_000_000_000_000, requestId: '', actorId: '', aggregateId: '', expectedVersion, payload };
}
const info = (over: Partial<ProviderInfo> = {}): ProviderInfo => ({
  provider_id: P1, organization_id: ORG, slug: 'okta', name: '', description: '', flags_json: '{"is_valid":false,"is_active":false}',
  issuer_url: 'https://idp', client_id: 'c', client_secret_sealed: 'v1.k.x', scopes: [], extra_json: '{}', ...over,
});
const facts = (over: Partial<OrganizationAuthFacts> = {}): OrganizationAuthFacts => ({ organization: { version: 3, slug: 'acme', flags: {} }, slugTaken: false, activeValidProviders: [], ...over });
const sso = { version: 3, slug: 'acme', flags: { allow_sso: true } };
type StoredProvider = NonNullable<OrganizationAuthFacts['provider']>;
const stored = (over: Partial<StoredProvider> = {}): StoredProvider => ({
  version: 1, slug: 'okta', flags: { is_valid: true, is_active: true }, issuerUrl: 'https://idp', extra: {}, clientSecretSealed: 'v1.k.x', ...over,
});
const statementsOf = (p: ReturnType<typeof projectOrganizationAuthEvent>) => (p.status === 'applied' ? p.statements : []);

describe('organization auth projection', () => {
  it('applies an organization update only at the version the command read', () => {
    const upd = (v: number) => ev('accounts.organization.updated', { organization_id: ORG, name: 'N', description: '', flags_json: '{"allow_email":true}' }, v);
    expect(projectOrganizationAuthEvent(upd(3), facts()).status).toBe('applied');
    expect(projectOrganizationAuthEvent(upd(2), facts())).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/^Version conflict/) });
    expect(projectOrganizationAuthEvent(upd(3), { slugTaken: false, activeValidProviders: [] })).toEqual({ status: 'rejected', reason: 'Organization not found' });
  });

  it('refuses to switch SSO on without an active, valid provider', () => {
    const on = ev('accounts.organization.updated', { organization_id: ORG, name: 'N', description: '', flags_json: '{"allow_sso":true}' });
    expect(projectOrganizationAuthEvent(on, facts())).toEqual({ status: 'rejected', reason: NO_ACTIVE_PROVIDER });
    expect(projectOrganizationAuthEvent(on, facts({ activeValidProviders: [P1] })).status).toBe('applied');
  });

  it('keeps provider slugs unique within the organization', () => {
    expect(projectOrganizationAuthEvent(ev('accounts.provider.created', { provider: info() }), facts({ slugTaken: true })))
      .toEqual({ status: 'rejected', reason: "Provider with slug 'okta' already exists" });
    expect(projectOrganizationAuthEvent(ev('accounts.provider.created', { provider: info() }), facts()).status).toBe('applied');
  });

  it('with SSO on, the last active provider can neither go nor be deactivated; a failed test still deactivates it', () => {
    const provider = stored();
    const del = ev('accounts.provider.deleted', { provider_id: P1, organization_id: ORG });
    expect(projectOrganizationAuthEvent(del, facts({ organization: sso, provider, activeValidProviders: [P1] }))).toEqual({ status: 'rejected', reason: LAST_PROVIDER });
    expect(projectOrganizationAuthEvent(del, facts({ organization: sso, provider, activeValidProviders: [P1, P2] })).status).toBe('applied');
    expect(projectOrganizationAuthEvent(del, facts({ provider, activeValidProviders: [P1] })).status).toBe('applied');
    const off = ev('accounts.provider.updated', { provider: info() }, 1);
    expect(projectOrganizationAuthEvent(off, facts({ organization: sso, provider, activeValidProviders: [P1] }))).toEqual({ status: 'rejected', reason: LAST_PROVIDER });
    const failed = projectOrganizationAuthEvent(ev('accounts.provider.tested', { provider_id: P1, organization_id: ORG, passed: false, detail: 'x' }), facts({ organization: sso, provider, activeValidProviders: [P1] }));
    expect(failed.status).toBe('applied');
    if (failed.status === 'applied') expect(JSON.parse(failed.statements[0]!.values[1] as string)).toEqual({ is_valid: false, is_active: false });
  });

  describe('a provider pointed elsewhere', () => {
    const update = (over: Partial<ProviderInfo>) => ev('accounts.provider.updated', { provider: info(over) }, 1);

    it('when the issuer changes and the event only carries the stored secret over, then the secret is dropped and the links made through the provider go', () => {
      const p = projectOrganizationAuthEvent(update({ issuer_url: 'https://elsewhere' }), facts({ provider: stored() }));
      expect(p.status).toBe('applied');
      const [upsert, unlink] = statementsOf(p);
      expect(upsert!.values[8]).toBe('');
      expect(JSON.parse(upsert!.values[5] as string)).toMatchObject({ is_valid: false, is_active: false });
      expect(unlink).toEqual({ text: 'DELETE FROM user_identities WHERE method = $1', values: ['sso:acme:okta'] });
    });

    it('when the issuer changes together with a new secret, then the new secret is kept and the links still go', () => {
      const p = projectOrganizationAuthEvent(update({ issuer_url: 'https://elsewhere', client_secret_sealed: 'v1.k.new' }), facts({ provider: stored() }));
      const [upsert, unlink] = statementsOf(p);
      expect(upsert!.values[8]).toBe('v1.k.new');
      expect(unlink!.values).toEqual(['sso:acme:okta']);
    });

    it('when the provider is renamed while it moves, then the links of its old identity go', () => {
      const p = projectOrganizationAuthEvent(update({ issuer_url: 'https://elsewhere', slug: 'okta-new' }), facts({ provider: stored() }));
      expect(statementsOf(p)[1]!.values).toEqual(['sso:acme:okta']);
    });

    it('when an endpoint URL in the settings changes, then it counts as moving', () => {
      const before = stored({ extra: { token_endpoint: 'https://idp/token', display: 'Okta' } });
      const p = projectOrganizationAuthEvent(update({ extra_json: '{"token_endpoint":"https://evil/token","display":"Okta"}' }), facts({ provider: before }));
      expect(statementsOf(p)).toHaveLength(2);
      expect(statementsOf(p)[0]!.values[8]).toBe('');
    });

    it('when only the name, client id or a trailing slash of the issuer changes, then the secret and the links stay', () => {
      for (const over of [{ name: 'Okta EU' }, { client_id: 'other' }, { issuer_url: 'https://idp/' }, { extra_json: '{"display":"x"}' }]) {
        const p = projectOrganizationAuthEvent(update(over), facts({ provider: stored() }));
        expect(statementsOf(p)).toHaveLength(1);
        expect(statementsOf(p)[0]!.values[8]).toBe('v1.k.x');
      }
    });

    it('given SSO on and this the last live provider, when it moves, then it is refused like a deactivation', () => {
      const moved = update({ issuer_url: 'https://elsewhere', flags_json: '{"is_valid":true,"is_active":true}' });
      expect(projectOrganizationAuthEvent(moved, facts({ organization: sso, provider: stored(), activeValidProviders: [P1] })))
        .toEqual({ status: 'rejected', reason: LAST_PROVIDER });
    });
  });

  describe('provider tests', () => {
    const tested = (passed: boolean, expectedVersion = 0) => ev('accounts.provider.tested', { provider_id: P1, organization_id: ORG, passed, detail: '' }, expectedVersion);
    const flagsAfter = (p: ReturnType<typeof projectOrganizationAuthEvent>) => JSON.parse(statementsOf(p)[0]!.values[1] as string) as Record<string, unknown>;

    it('given a provider without a client secret, when a passing test arrives, then it stays invalid and inactive', () => {
      const p = projectOrganizationAuthEvent(tested(true, 1), facts({ provider: stored({ clientSecretSealed: '', flags: {} }) }));
      expect(flagsAfter(p)).toEqual({ is_valid: false, is_active: false });
    });

    it('given the provider changed since it was tested, when the verdict arrives, then it is refused', () => {
      expect(projectOrganizationAuthEvent(tested(true, 1), facts({ provider: stored({ version: 2 }) })))
        .toMatchObject({ status: 'rejected', reason: expect.stringMatching(/^Version conflict/) });
      expect(flagsAfter(projectOrganizationAuthEvent(tested(true, 2), facts({ provider: stored({ version: 2, flags: {} }) }))))
        .toEqual({ is_valid: true, is_active: true });
    });
  });
});
