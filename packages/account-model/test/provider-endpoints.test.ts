// Given/when/then tests of what counts as pointing an SSO provider at another party.
import { describe, expect, it } from 'vitest';
import { endpointsChanged } from '../src/aggregates/provider/endpoints.ts';

const at = (issuer_url: string, extra: unknown = {}) => ({ issuer_url, extra });

describe('provider endpoints', () => {
  it('when the issuer changes, then the provider moved; a trailing slash or surrounding space is no change', () => {
    expect(endpointsChanged(at('https://idp.example'), at('https://evil.example'))).toBe(true);
    expect(endpointsChanged(at('https://idp.example/tenant-a'), at('https://idp.example/tenant-b'))).toBe(true);
    expect(endpointsChanged(at('https://idp.example'), at('https://idp.example/'))).toBe(false);
    expect(endpointsChanged(at(' https://idp.example'), at('https://idp.example'))).toBe(false);
  });

  it('when a URL anywhere in extra is added, changed or removed, then the provider moved', () => {
    const base = { endpoints: { token: 'https://idp/token' }, display: 'Okta' };
    expect(endpointsChanged(at('https://idp', base), at('https://idp', { ...base, endpoints: { token: 'https://evil/token' } }))).toBe(true);
    expect(endpointsChanged(at('https://idp', base), at('https://idp', { display: 'Okta' }))).toBe(true);
    expect(endpointsChanged(at('https://idp', {}), at('https://idp', { jwks: ['https://evil/keys'] }))).toBe(true);
  });

  it('when a value under an endpoint-like key changes, even one that is not a URL yet, then the provider moved', () => {
    expect(endpointsChanged(at('https://idp', { token_endpoint: 'idp/token' }), at('https://idp', { token_endpoint: 'evil/token' }))).toBe(true);
    expect(endpointsChanged(at('https://idp', { jwks_uri: '' }), at('https://idp', {}))).toBe(true);
  });

  it('when only other settings change, then the provider did not move', () => {
    expect(endpointsChanged(at('https://idp', { display: 'Okta', prompt: 'login' }), at('https://idp', { display: 'Okta EU' }))).toBe(false);
    expect(endpointsChanged(at('https://idp', { a: { b: 'https://idp/x' } }), at('https://idp', { a: { b: 'https://idp/x' }, c: 1 }))).toBe(false);
  });

  it('when extra nests deeper than is walked, then any change down there counts as moving', () => {
    const deep = (leaf: string): unknown => Array.from({ length: 40 }).reduce<unknown>((inner) => ({ x: inner }), { note: leaf });
    expect(endpointsChanged(at('https://idp', deep('a')), at('https://idp', deep('b')))).toBe(true);
    expect(endpointsChanged(at('https://idp', deep('a')), at('https://idp', deep('a')))).toBe(false);
  });
});
