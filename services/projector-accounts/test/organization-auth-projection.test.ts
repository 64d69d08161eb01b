// Given/when/then tests of the organization-auth projection: versions, provider slugs, and the
// rules tying SSO to an active, valid provider.
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
const facts = (over: Partial<OrganizationAuthFacts> = {}): OrganizationAuthFacts => ({ organization: { version: 3, flags: {} }, slugTaken: false, activeValidProviders: [], ...over });
const sso = { version: 3, flags: { allow_sso: true } };

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
    const provider = { version: 1, slug: 'okta', flags: { is_valid: true, is_active: true } };
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
});
