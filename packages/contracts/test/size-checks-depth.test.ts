// Size checks that serialise a value (JSON.stringify recurses) run only after the iterative depth
// check passed: a field nested 10^5 deep is a 422 issue, never a RangeError (found by the hostile
// input property test, issue 24).
import { describe, expect, it } from 'vitest';
import { probeProviderRequest, providerSettings } from '../src/index.ts';

const deep = (n: number): unknown => JSON.parse(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`);

describe('size checks on free-form JSON', () => {
  it('when provider extras or SSO settings extra nest 100,000 deep, then parsing reports the depth instead of throwing', () => {
    const probe = probeProviderRequest.safeParse({ kind: 'custom', provider: { url: 'http://10.0.0.1/v1', key: '', extras: { a: deep(100_000) } } });
    expect(probe.success).toBe(false);
    expect(probe.error?.issues.map((i) => i.message)).toContain('nests deeper than 64 levels');
    const settings = providerSettings.safeParse({ issuer_url: 'https://id.example.com', client_id: 'a', client_secret: 'b', extra: { a: deep(100_000) } });
    expect(settings.success).toBe(false);
  });

  it('when a shallow value is over the size, then the size check still refuses it', () => {
    const probe = probeProviderRequest.safeParse({ kind: 'custom', provider: { url: 'http://10.0.0.1/v1', key: '', extras: { a: 'x'.repeat(20_000) } } });
    expect(probe.error?.issues.map((i) => i.message)).toContain('extras is larger than 16 KiB');
  });
});
