// Given/when/then of an organization's auth flags and its SSO providers: versions, provider slugs,
// the rules tying SSO to a live provider, and what a provider loses when it moves to another party.
import { describe, expect, it } from 'vitest';
import type { ProviderInfo } from '@llm/events';
import { decideFlags, decideSlug, nextFlags, organization, type OrganizationAuthState, type ProviderState } from '../src/aggregates/organization.ts';
import { decideProviderChange, decideProviderFlags, LAST_PROVIDER, provider } from '../src/aggregates/provider.ts';
import { ev, given } from './support/given.ts';

const ORG = '00000000-0000-4000-8000-00000000000a';
const P1 = '00000000-0000-4000-8000-000000000001';
const P2 = '00000000-0000-4000-8000-000000000002';

const info = (over: Partial<ProviderInfo> = {}): ProviderInfo => ({
  provider_id: P1, organization_id: ORG, slug: 'okta', name: '', description: '', flags_json: '{"is_valid":false,"is_active":false}',
  issuer_url: 'https://idp', client_id: 'c', client_secret_sealed: 'v1.k.x', scopes: [], extra_json: '{}', ...over,
});
const org = (flags: Record<string, unknown> = {}, version = 3): OrganizationAuthState => ({ organization: { id: ORG, slug: 'acme', version, flags }, providers: [], verifiedDomains: 0 });
const created = (over: Partial<ProviderInfo> = {}) => ev('accounts.provider.created', { provider: info(over) });
const tested = (passed: boolean, expectedVersion = 0, id = P1) => ev('accounts.provider.tested', { provider_id: id, organization_id: ORG, passed, detail: '' }, { expectedVersion });
const updated = (over: Partial<ProviderInfo>, expectedVersion = 0) => ev('accounts.provider.updated', { provider: info(over) }, { expectedVersion });
const orgUpdate = (flags: Record<string, unknown>, expectedVersion = 0) =>
  ev('accounts.organization.updated', { organization_id: ORG, name: 'N', description: '', flags_json: JSON.stringify(flags) }, { expectedVersion });
/** A live provider (created, then passed its test). */
const live = (id = P1, slug = 'okta') => [created({ provider_id: id, slug }), tested(true, 0, id)];
const p1 = (s: OrganizationAuthState): ProviderState => s.providers.find((p) => p.id === P1)!;

describe('organization aggregate', () => {
  it('applies an update only at the version the command read, and counts it', () => {
    expect(given(organization, [], org()).when(orgUpdate({ allow_email: true }, 2)).decision)
      .toMatchObject({ code: 'organization_changed', details: { expected_version: 2, current_version: 3 } });
    const t = given(organization, [], org()).when(orgUpdate({ allow_email: true }, 3));
    expect(t.decision.status).toBe('accepted');
    expect(t.state.organization).toMatchObject({ version: 4, flags: { allow_email: true } });
    expect(given(organization, []).when(orgUpdate({}, 0)).decision).toMatchObject({ code: 'organization_not_found' });
  });

  it('refuses SSO without a live provider and auto-join or domains-only without a verified domain', () => {
    expect(given(organization, [], org()).when(orgUpdate({ allow_sso: true })).decision)
      .toMatchObject({ code: 'organization_flags_invalid', message: expect.stringMatching(/SSO needs an active and valid SSO provider/) });
    expect(given(organization, [], org()).when(orgUpdate({ auto_join: true })).decision)
      .toMatchObject({ code: 'organization_flags_invalid', message: expect.stringMatching(/auto_join and domains_only need a verified domain/) });
    expect(given(organization, [], { ...org(), verifiedDomains: 1 }).when(orgUpdate({ domains_only: true })).decision.status).toBe('accepted');
    const withLive = given(provider, live(), org()).state;
    expect(given(organization, [], withLive).when(orgUpdate({ allow_sso: true })).decision.status).toBe('accepted');
  });

  it('checks flags only when they change (a rename keeps flags set while their conditions lapsed)', () => {
    expect(given(organization, [], org({ allow_sso: true })).when(orgUpdate({ allow_sso: true })).decision.status).toBe('accepted');
  });

  it('command rules: next flags keep the owner a way in; the slug never changes', () => {
    expect(nextFlags({ allow_email: false }, {}, { allow_social: false })).toMatchObject({ allow_root: true });
    expect(nextFlags({ allow_email: true }, {}, {})).not.toHaveProperty('allow_root', true);
    expect(decideSlug('acme', 'other')).toMatchObject({ code: 'organization_slug_immutable' });
    expect(decideSlug('acme', 'acme').status).toBe('accepted');
    expect(decideFlags(org(), {}).status).toBe('accepted');
  });
});

describe('provider aggregate', () => {
  it('keeps provider ids and slugs unique within the organization', () => {
    const h = given(provider, [created()], org());
    expect(h.when(created()).decision).toMatchObject({ code: 'provider_exists' });
    expect(h.when(created({ provider_id: P2 })).decision).toMatchObject({ code: 'provider_slug_exists', message: "Provider with slug 'okta' already exists" });
    expect(h.when(created({ provider_id: P2, slug: 'other' })).decision.status).toBe('accepted');
    expect(given(provider, []).when(created()).decision).toMatchObject({ code: 'organization_not_found' });
  });

  it('with SSO on, the last live provider can neither go nor be deactivated; a failed test still deactivates it', () => {
    const h = given(provider, live(), org({ allow_sso: true }));
    const del = ev('accounts.provider.deleted', { provider_id: P1, organization_id: ORG });
    expect(h.when(del).decision).toEqual({ status: 'rejected', code: 'sso_last_provider', message: LAST_PROVIDER });
    expect(h.when(updated({ flags_json: '{"is_valid":true,"is_active":false}' })).decision).toMatchObject({ code: 'sso_last_provider' });
    expect(given(provider, [...live(), ...live(P2, 'two')], org({ allow_sso: true })).when(del).decision.status).toBe('accepted');
    expect(given(provider, live(), org()).when(del).state.providers).toEqual([]);
    const failed = h.when(tested(false));
    expect(failed.decision.status).toBe('accepted');
    expect(p1(failed.state).flags).toMatchObject({ is_valid: false, is_active: false });
  });

  it('given a provider without a client secret, when a passing test arrives, then it stays invalid and inactive', () => {
    const t = given(provider, [created({ client_secret_sealed: '' })], org()).when(tested(true));
    expect(p1(t.state)).toMatchObject({ version: 2, flags: { is_valid: false, is_active: false } });
  });

  it('given the provider changed since it was tested, when the verdict arrives, then provider_changed', () => {
    const h = given(provider, [created(), updated({ name: 'x' })], org());
    expect(h.when(tested(true, 1)).decision).toMatchObject({ code: 'provider_changed', details: { current_version: 2 } });
    expect(p1(h.when(tested(true, 2)).state).flags).toMatchObject({ is_valid: true, is_active: true });
  });

  it('given a provider whose secret is sealed under the ring, when the rotation re-seals it at the version it read, then only the sealed value changes and the version counts it; a later change wins over a stale re-seal', () => {
    const resealed = (sealed: string, expectedVersion: number, id = P1) =>
      ev('accounts.provider.secret_resealed', { provider_id: id, organization_id: ORG, client_secret_sealed: sealed }, { expectedVersion });
    const h = given(provider, live(), org({ allow_sso: true }));
    const t = h.when(resealed('v1.datakey.new', 2));
    expect(t.decision.status).toBe('accepted');
    expect(p1(t.state)).toMatchObject({ version: 3, clientSecretSealed: 'v1.datakey.new', flags: { is_valid: true, is_active: true }, slug: 'okta' });
    // A secret sent (or a change made) after the rotation read the provider: the re-seal is refused.
    const changed = given(provider, [...live(), updated({ client_secret_sealed: 'v1.k.sent', flags_json: '{"is_valid":true,"is_active":true}' })], org());
    expect(changed.when(resealed('v1.datakey.new', 2)).decision).toMatchObject({ code: 'provider_changed', details: { current_version: 3 } });
    expect(given(provider, [], org()).when(resealed('v1.datakey.new', 1, P2)).decision).toMatchObject({ code: 'provider_not_found' });
  });

  describe('a provider pointed elsewhere', () => {
    it('when the issuer changes and only the stored secret is carried over, then the secret is dropped and it is untested', () => {
      const t = given(provider, live(), org()).when(updated({ issuer_url: 'https://elsewhere', flags_json: '{"is_valid":true,"is_active":true}' }));
      expect(p1(t.state)).toMatchObject({ clientSecretSealed: '', issuerUrl: 'https://elsewhere', flags: { is_valid: false, is_active: false } });
    });

    it('when the issuer changes together with a new secret, then the new secret is kept', () => {
      const t = given(provider, live(), org()).when(updated({ issuer_url: 'https://elsewhere', client_secret_sealed: 'v1.k.new' }));
      expect(p1(t.state).clientSecretSealed).toBe('v1.k.new');
    });

    it('when an endpoint URL in the settings changes, then it counts as moving', () => {
      const h = given(provider, [created({ extra_json: '{"token_endpoint":"https://idp/token","display":"Okta"}' })], org());
      expect(p1(h.when(updated({ extra_json: '{"token_endpoint":"https://evil/token","display":"Okta"}' })).state).clientSecretSealed).toBe('');
    });

    it('when only the name, client id or a trailing slash of the issuer changes, then the secret stays', () => {
      for (const over of [{ name: 'Okta EU' }, { client_id: 'other' }, { issuer_url: 'https://idp/' }, { extra_json: '{"display":"x"}' }]) {
        expect(p1(given(provider, [created()], org()).when(updated(over)).state).clientSecretSealed).toBe('v1.k.x');
      }
    });

    it('given SSO on and this the last live provider, when it moves, then it is refused like a deactivation', () => {
      const moved = updated({ issuer_url: 'https://elsewhere', flags_json: '{"is_valid":true,"is_active":true}' });
      expect(given(provider, live(), org({ allow_sso: true })).when(moved).decision).toMatchObject({ code: 'sso_last_provider' });
    });
  });

  it('command rules: another way in must stay on; valid and active only by a test', () => {
    expect(decideProviderChange({ allow_sso: true })).toMatchObject({ code: 'sso_fallback_required' });
    expect(decideProviderChange({ allow_root: true }).status).toBe('accepted');
    expect(decideProviderFlags({}, { is_active: true }, { is_active: true })).toMatchObject({ code: 'provider_untested' });
    expect(decideProviderFlags({}, { is_valid: true, is_active: false }, { is_valid: true })).toMatchObject({ code: 'provider_untested' });
    expect(decideProviderFlags({ is_valid: true }, { is_valid: true, is_active: true }, { is_active: true }).status).toBe('accepted');
  });

  it('ids name the same provider whatever the case of their hex digits', () => {
    const h = given(provider, [created()], org());
    expect(h.when(created({ provider_id: P1.toUpperCase() })).decision).toMatchObject({ code: 'provider_exists' });
    expect(h.when(ev('accounts.provider.deleted', { provider_id: P1.toUpperCase(), organization_id: ORG.toUpperCase() })).state.providers).toEqual([]);
  });
});
