import { describe, expect, it } from 'vitest';
import { sessionEnv, sessionOptionsFromEnv } from '../src/index.ts';

describe('session environment', () => {
  it('when secrets are comma-separated, then they become an ordered list and defaults apply', () => {
    const env = sessionEnv.parse({ SESSION_SECRETS: ` ${'a'.repeat(32)} ,${'b'.repeat(32)},` });
    expect(sessionOptionsFromEnv(env)).toEqual({ secrets: ['a'.repeat(32), 'b'.repeat(32)], ttlSeconds: 604800, secure: true });
  });

  it('when a secret is short or none is set, then parsing fails without echoing the secret', () => {
    const r = sessionEnv.safeParse({ SESSION_SECRETS: 'tiny-secret-value' });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).not.toContain('tiny-secret-value');
    expect(sessionEnv.safeParse({ SESSION_SECRETS: ' , ' }).success).toBe(false);
    expect(sessionEnv.safeParse({}).success).toBe(false);
  });

  it('when ttl and secure flag are set, then they are honoured', () => {
    const env = sessionEnv.parse({ SESSION_SECRETS: 'a'.repeat(32), SESSION_TTL_S: '3600', SESSION_COOKIE_SECURE: 'false' });
    expect(sessionOptionsFromEnv(env)).toMatchObject({ ttlSeconds: 3600, secure: false });
    expect(sessionEnv.safeParse({ SESSION_SECRETS: 'a'.repeat(32), SESSION_TTL_S: '5' }).success).toBe(false);
  });
});
