import { describe, expect, it } from 'vitest';
import { generateToken, isToken, isTokenExpired, tokenExpiresAt, TOKEN_TTL_MS } from '../src/verification-token.ts';

describe('verification tokens', () => {
  it('when generated, then tokens are 32 lowercase hex characters and differ', () => {
    const tokens = new Set(Array.from({ length: 100 }, generateToken));
    expect(tokens.size).toBe(100);
    for (const t of tokens) {
      expect(t).toMatch(/^[0-9a-f]{32}$/);
      expect(isToken(t)).toBe(true);
      expect(encodeURIComponent(t)).toBe(t);
    }
    expect(isToken('ABCDEF0123456789abcdef0123456789')).toBe(false);
    expect(isToken('abc')).toBe(false);
  });

  it('when 48 hours have passed since issue, then the token has expired (not a moment before)', () => {
    const issued = new Date('2026-01-01T00:00:00.000Z');
    expect(TOKEN_TTL_MS).toBe(172_800_000);
    expect(tokenExpiresAt(issued).toISOString()).toBe('2026-01-03T00:00:00.000Z');
    expect(isTokenExpired(issued, new Date('2026-01-02T23:59:59.999Z'))).toBe(false);
    expect(isTokenExpired(issued, new Date('2026-01-03T00:00:00.000Z'))).toBe(false);
    expect(isTokenExpired(issued, new Date('2026-01-03T00:00:00.001Z'))).toBe(true);
  });
});
