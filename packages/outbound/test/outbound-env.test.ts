import { describe, expect, it } from 'vitest';
import { outboundEnv, outboundOptionsFromEnv } from '../src/outbound-env.ts';

describe('outboundEnv', () => {
  it('when nothing is set, then the safe defaults apply', () => {
    const env = outboundEnv.parse({});
    expect(env).toEqual({
      OUTBOUND_TIMEOUT_MS: 10_000,
      OUTBOUND_CONNECT_TIMEOUT_MS: 5_000,
      OUTBOUND_MAX_BYTES: 1_048_576,
      OUTBOUND_ALLOW_HOSTS: [],
      OUTBOUND_ALLOW_INSECURE_HTTP: false,
    });
    expect(outboundOptionsFromEnv(env)).toMatchObject({ allowInsecure: false, allowPrivateHosts: [], timeoutMs: 10_000, maxBytes: 1_048_576 });
  });

  it('when values are set, then they are parsed and the allow list split', () => {
    const env = outboundEnv.parse({
      OUTBOUND_TIMEOUT_MS: '2500',
      OUTBOUND_MAX_BYTES: '65536',
      OUTBOUND_ALLOW_HOSTS: ' localhost , 127.0.0.1:4000,[::1]:4000, 10.0.0.0/8 ,',
      OUTBOUND_ALLOW_INSECURE_HTTP: 'true',
    });
    expect(env).toMatchObject({ OUTBOUND_TIMEOUT_MS: 2500, OUTBOUND_MAX_BYTES: 65536, OUTBOUND_ALLOW_INSECURE_HTTP: true });
    expect(env.OUTBOUND_ALLOW_HOSTS).toEqual(['localhost', '127.0.0.1:4000', '[::1]:4000', '10.0.0.0/8']);
  });

  it('when values are malformed, then every problem is reported', () => {
    const r = outboundEnv.safeParse({ OUTBOUND_TIMEOUT_MS: '-1', OUTBOUND_ALLOW_HOSTS: 'ok.example,http://bad', OUTBOUND_ALLOW_INSECURE_HTTP: 'yes' });
    expect(r.success).toBe(false);
    const paths = r.error?.issues.map((i) => i.path.join('.')) ?? [];
    expect(paths).toEqual(expect.arrayContaining(['OUTBOUND_TIMEOUT_MS', 'OUTBOUND_ALLOW_HOSTS', 'OUTBOUND_ALLOW_INSECURE_HTTP']));
    expect(r.error?.issues.find((i) => i.path[0] === 'OUTBOUND_ALLOW_HOSTS')?.message).toContain('http://bad');
  });
});
