import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, needsReseal, parseSecretsKeys, SecretBoxError, secretsKeyEnv, SecretValue } from '../src/index.ts';

const key = () => randomBytes(32).toString('base64');
const PLAINTEXT = 'client-secret-Ä-✓-value';

function reason(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SecretBoxError);
    expect(String(err)).not.toContain(PLAINTEXT);
    return (err as SecretBoxError).reason;
  }
  return undefined;
}

describe('secret box', () => {
  it('when a secret is sealed, then it opens to the same text, and two seals differ', () => {
    const ring = parseSecretsKeys(key());
    const a = encryptSecret(PLAINTEXT, ring);
    const b = encryptSecret(PLAINTEXT, ring);
    expect(a).not.toBe(b);
    expect(a).toMatch(new RegExp(`^v1\\.${ring.currentKeyId}\\.[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{22}$`));
    expect(a).not.toContain(PLAINTEXT);
    expect(decryptSecret(a, ring).reveal()).toBe(PLAINTEXT);
    expect(decryptSecret(encryptSecret('', ring), ring).reveal()).toBe('');
  });

  it('when any part of the sealed text is altered, then it does not open', () => {
    const ring = parseSecretsKeys(key());
    const sealed = encryptSecret(PLAINTEXT, ring);
    const parts = sealed.split('.');
    for (const i of [2, 3, 4]) {
      const p = parts[i]!;
      const altered = [...parts];
      altered[i] = (p[0] === 'A' ? 'B' : 'A') + p.slice(1);
      expect(reason(() => decryptSecret(altered.join('.'), ring))).toBe('authentication_failed');
    }
    expect(reason(() => decryptSecret(`v2${sealed.slice(2)}`, ring))).toBe('malformed');
    expect(reason(() => decryptSecret(sealed.split('.').slice(0, 4).join('.'), ring))).toBe('malformed');
    expect(reason(() => decryptSecret('not sealed at all', ring))).toBe('malformed');
  });

  it('when the context differs, then the secret does not open (no copying between records)', () => {
    const ring = parseSecretsKeys(key());
    const sealed = encryptSecret(PLAINTEXT, ring, { context: 'sso_provider:1' });
    expect(decryptSecret(sealed, ring, { context: 'sso_provider:1' }).reveal()).toBe(PLAINTEXT);
    expect(reason(() => decryptSecret(sealed, ring, { context: 'sso_provider:2' }))).toBe('authentication_failed');
    expect(reason(() => decryptSecret(sealed, ring))).toBe('authentication_failed');
  });

  it('when keys rotate, then old seals still open, new ones use the new key, and retired keys are named', () => {
    const oldKey = key();
    const newKey = key();
    const before = parseSecretsKeys(oldKey);
    const sealed = encryptSecret(PLAINTEXT, before);
    const rotated = parseSecretsKeys(`${newKey},${oldKey}`);
    expect(decryptSecret(sealed, rotated).reveal()).toBe(PLAINTEXT);
    expect(needsReseal(sealed, rotated)).toBe(true);
    const resealed = encryptSecret(decryptSecret(sealed, rotated), rotated);
    expect(needsReseal(resealed, rotated)).toBe(false);
    expect(reason(() => decryptSecret(resealed, before))).toBe('unknown_key');
  });

  it('when a key is forged under a known id, then authentication still fails', () => {
    const ring = parseSecretsKeys(key());
    const other = parseSecretsKeys(key());
    const sealed = encryptSecret(PLAINTEXT, other).split('.');
    sealed[1] = ring.currentKeyId;
    expect(reason(() => decryptSecret(sealed.join('.'), ring))).toBe('authentication_failed');
  });

  it('when a decrypted secret or the keyring is logged, then neither plaintext nor key shows', () => {
    const k = key();
    const ring = parseSecretsKeys(k);
    const secret = decryptSecret(encryptSecret(PLAINTEXT, ring), ring);
    const printed = [String(secret), `${secret}`, JSON.stringify({ secret }), inspect(secret), inspect({ nested: { secret } }), JSON.stringify(ring), inspect(ring)].join(' ');
    expect(printed).not.toContain(PLAINTEXT);
    expect(printed).not.toContain(k);
    expect(printed).not.toContain(Buffer.from(k, 'base64').toString('hex'));
    expect(printed).toContain('[redacted]');
    expect(secret).toBeInstanceOf(SecretValue);
  });

  it('when SECRETS_KEY is malformed, then configuration fails without echoing it', () => {
    const short = randomBytes(16).toString('base64');
    const r = secretsKeyEnv.safeParse({ SECRETS_KEY: short });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain('must decode to 32 bytes');
    expect(JSON.stringify(r.error?.issues)).not.toContain(short);
    expect(secretsKeyEnv.safeParse({ SECRETS_KEY: 'not base64!!' }).success).toBe(false);
    expect(secretsKeyEnv.safeParse({ SECRETS_KEY: ' , ' }).success).toBe(false);
    const ok = secretsKeyEnv.parse({ SECRETS_KEY: `${key()}, ${randomBytes(32).toString('base64url')}` });
    expect(ok.SECRETS_KEY.keyIds).toHaveLength(2);
  });
});
