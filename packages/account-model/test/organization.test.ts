// Given/when/then of an organization's auth flags and its SSO providers: versions, provider slugs,
// the rules tying SSO to a live provider, and what a provider loses when it moves to another party.
import { describe, expect, it } from 'vitest';
import type { ProviderInfo } from '@llm/events';
import {
  decideFlags, decideProviderChange, decideProviderFlags, decideSlug, LAST_PROVIDER, nextFlags, organization, provider, providerAfterTest, providerAfterUpdate,
  type OrganizationAuthState, type ProviderState,
} from '../src/index.ts';
import { decideOn, ev } from './support/given.ts';

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
const nothing: OrganizationAuthState = { providers: [], verifiedDomains: 0 };
/** Provider P1 as `created()` makes it: version 1, untested. */
const untested = (over: Partial<ProviderState> = {}): ProviderState => ({
  id: P1, slug: 'okta', version: 1, flags: { is_valid: false, is_active: false }, issuerUrl: 'https://idp', extra: {}, clientSecretSealed: 'v1.k.x', ...over,
});
/** A live provider: created, then passed its test (version 2, valid and active). */
const live = (id = P1, slug = 'okta'): ProviderState => untested({ id, slug, version: 2, flags: { is_valid: true, is_active: true } });
const withProviders = (s: OrganizationAuthState, ...providers: ProviderState[]): OrganizationAuthState => ({ ...s, providers });

describe('organization aggregate', () => {
  it('applies an update only at the version the command read', () => {
    expect(decideOn(organization, org(), orgUpdate({ allow_email: true }, 2)))
      .toMatchObject({ code: 'organization_changed', details: { expected_version: 2, current_version: 3 } });
    expect(decideOn(organization, org(), orgUpdate({ allow_email: true }, 3)).status).toBe('accepted');
    expect(decideOn(organization, nothing, orgUpdate({}, 0))).toMatchObject({ code: 'organization_not_found' });
  });

  it('refuses SSO without a live provider and auto-join or domains-only without a verified domain', () => {
    expect(decideOn(organization, org(), orgUpdate({ allow_sso: true })))
      .toMatchObject({ code: 'organization_flags_invalid', message: expect.stringMatching(/SSO needs an active and valid SSO provider/) });
    expect(decideOn(organization, org(), orgUpdate({ auto_join: true })))
      .toMatchObject({ code: 'organization_flags_invalid', message: expect.stringMatching(/auto_join and domains_only need a verified domain/) });
    expect(decideOn(organization, { ...org(), verifiedDomains: 1 }, orgUpdate({ domains_only: true })).status).toBe('accepted');
    expect(decideOn(organization, withProviders(org(), live()), orgUpdate({ allow_sso: true })).status).toBe('accepted');
    expect(decideOn(organization, withProviders(org(), untested()), orgUpdate({ allow_sso: true }))).toMatchObject({ code: 'organization_flags_invalid' });
  });

  it('checks flags only when they change (a rename keeps flags set while their conditions lapsed)', () => {
    expect(decideOn(organization, org({ allow_sso: true }), orgUpdate({ allow_sso: true })).status).toBe('accepted');
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
    const h = withProviders(org(), untested());
    expect(decideOn(provider, org(), created()).status).toBe('accepted');
    expect(decideOn(provider, h, created())).toMatchObject({ code: 'provider_exists' });
    expect(decideOn(provider, h, created({ provider_id: P2 }))).toMatchObject({ code: 'provider_slug_exists', message: "Provider with slug 'okta' already exists" });
    expect(decideOn(provider, h, created({ provider_id: P2, slug: 'other' })).status).toBe('accepted');
    expect(decideOn(provider, nothing, created())).toMatchObject({ code: 'organization_not_found' });
  });

  it('with SSO on, the last live provider can neither go nor be deactivated; a failed test is still accepted', () => {
    const h = withProviders(org({ allow_sso: true }), live());
    const del = ev('accounts.provider.deleted', { provider_id: P1, organization_id: ORG });
    expect(decideOn(provider, h, del)).toEqual({ status: 'rejected', code: 'sso_last_provider', message: LAST_PROVIDER });
    expect(decideOn(provider, h, updated({ flags_json: '{"is_valid":true,"is_active":false}' }))).toMatchObject({ code: 'sso_last_provider' });
    expect(decideOn(provider, withProviders(org({ allow_sso: true }), live(), live(P2, 'two')), del).status).toBe('accepted');
    expect(decideOn(provider, withProviders(org(), live()), del).status).toBe('accepted');
    expect(decideOn(provider, h, tested(false)).status).toBe('accepted');
  });

  it('given a provider without a client secret, when a passing test arrives, then it is accepted; the verdict leaves it invalid and inactive', () => {
    const noSecret = untested({ clientSecretSealed: '' });
    expect(decideOn(provider, withProviders(org(), noSecret), tested(true)).status).toBe('accepted');
    // The verdict as the projection stores it (projector-accounts applies providerAfterTest).
    expect(providerAfterTest(noSecret, true)).toMatchObject({ version: 2, flags: { is_valid: false, is_active: false } });
    expect(providerAfterTest(untested(), true)).toMatchObject({ version: 2, flags: { is_valid: true, is_active: true } });
    expect(providerAfterTest(live(), false)).toMatchObject({ version: 3, flags: { is_valid: false, is_active: false } });
  });

  it('given the provider changed since it was tested, when the verdict arrives, then provider_changed', () => {
    const h = withProviders(org(), untested({ version: 2 }));
    expect(decideOn(provider, h, tested(true, 1))).toMatchObject({ code: 'provider_changed', details: { current_version: 2 } });
    expect(decideOn(provider, h, tested(true, 2)).status).toBe('accepted');
  });

  it('given a provider whose secret is sealed under the ring, when the rotation re-seals it at the version it read, then it is accepted; a later change wins over a stale re-seal', () => {
    const resealed = (sealed: string, expectedVersion: number, id = P1) =>
      ev('accounts.provider.secret_resealed', { provider_id: id, organization_id: ORG, client_secret_sealed: sealed }, { expectedVersion });
    expect(decideOn(provider, withProviders(org({ allow_sso: true }), live()), resealed('v1.datakey.new', 2)).status).toBe('accepted');
    // A secret sent (or a change made) after the rotation read the provider: the re-seal is refused.
    const changed = withProviders(org(), { ...live(), version: 3, clientSecretSealed: 'v1.k.sent' });
    expect(decideOn(provider, withProviders(org(), live()), updated({ client_secret_sealed: 'v1.k.sent', flags_json: '{"is_valid":true,"is_active":true}' })).status).toBe('accepted');
    expect(decideOn(provider, changed, resealed('v1.datakey.new', 2))).toMatchObject({ code: 'provider_changed', details: { current_version: 3 } });
    expect(decideOn(provider, org(), resealed('v1.datakey.new', 1, P2))).toMatchObject({ code: 'provider_not_found' });
  });

  // What an update leaves is providerAfterUpdate's (projector-accounts stores it; decide looks at its flags).
  describe('a provider pointed elsewhere', () => {
    it('when the issuer changes and only the stored secret is carried over, then it is accepted; the secret is dropped and it is untested', () => {
      const over = { issuer_url: 'https://elsewhere', flags_json: '{"is_valid":true,"is_active":true}' };
      expect(decideOn(provider, withProviders(org(), live()), updated(over)).status).toBe('accepted');
      expect(providerAfterUpdate(live(), info(over))).toMatchObject({ moved: true, clientSecretSealed: '', issuerUrl: 'https://elsewhere', flags: { is_valid: false, is_active: false } });
    });

    it('when the issuer changes together with a new secret, then it is accepted and the new secret is kept', () => {
      const over = { issuer_url: 'https://elsewhere', client_secret_sealed: 'v1.k.new' };
      expect(decideOn(provider, withProviders(org(), live()), updated(over)).status).toBe('accepted');
      expect(providerAfterUpdate(live(), info(over)).clientSecretSealed).toBe('v1.k.new');
    });

    it('when an endpoint URL in the settings changes, then it counts as moving', () => {
      const before = untested({ extra: { token_endpoint: 'https://idp/token', display: 'Okta' } });
      const over = { extra_json: '{"token_endpoint":"https://evil/token","display":"Okta"}' };
      expect(decideOn(provider, withProviders(org(), before), updated(over)).status).toBe('accepted');
      expect(providerAfterUpdate(before, info(over))).toMatchObject({ moved: true, clientSecretSealed: '' });
    });

    it('when only the name, client id or a trailing slash of the issuer changes, then the secret stays', () => {
      for (const over of [{ name: 'Okta EU' }, { client_id: 'other' }, { issuer_url: 'https://idp/' }, { extra_json: '{"display":"x"}' }]) {
        expect(decideOn(provider, withProviders(org(), untested()), updated(over)).status).toBe('accepted');
        expect(providerAfterUpdate(untested(), info(over))).toMatchObject({ moved: false, clientSecretSealed: 'v1.k.x' });
      }
    });

    it('given SSO on and this the last live provider, when it moves, then it is refused like a deactivation', () => {
      const moved = updated({ issuer_url: 'https://elsewhere', flags_json: '{"is_valid":true,"is_active":true}' });
      expect(decideOn(provider, withProviders(org({ allow_sso: true }), live()), moved)).toMatchObject({ code: 'sso_last_provider' });
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
    const h = withProviders(org(), untested());
    expect(decideOn(provider, h, created({ provider_id: P1.toUpperCase() }))).toMatchObject({ code: 'provider_exists' });
    expect(decideOn(provider, h, ev('accounts.provider.deleted', { provider_id: P1.toUpperCase(), organization_id: ORG.toUpperCase() })).status).toBe('accepted');
  });
});
