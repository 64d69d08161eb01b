// Envelope encryption: a value opens only with its own data key at its own address, and a data key
// only with the key ring it was wrapped under, at its own secret.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretsKeyring } from '@llm/oidc';
import { newDataKey, openData, sealData, unwrapDataKey, wrapDataKey } from '../src/envelope.ts';

const P = '00000000-0000-4000-8000-00000000000a';
const S = '00000000-0000-4000-8000-000000000001';
const at = { ownerId: P, secretId: S, kind: 'provider_key' };

describe('envelope', () => {
  it('seals and opens a value; the ciphertext holds no plaintext', () => {
    const key = newDataKey();
    const sealed = sealData(key, '{"provider":{"key":"sk-very-secret"}}', at);
    expect(sealed).not.toContain('very-secret');
    expect(openData(key, sealed, at)).toBe('{"provider":{"key":"sk-very-secret"}}');
  });

  it('a ciphertext moved to another project, secret or kind does not open', () => {
    const key = newDataKey();
    const sealed = sealData(key, 'v', at);
    expect(() => openData(key, sealed, { ...at, ownerId: '00000000-0000-4000-8000-00000000000b' })).toThrow(/authentication_failed|unknown_key/);
    expect(() => openData(key, sealed, { ...at, secretId: '00000000-0000-4000-8000-000000000002' })).toThrow();
    expect(() => openData(key, sealed, { ...at, kind: 'custom_secret' })).toThrow();
    expect(openData(key, sealed, { ...at, secretId: S.toUpperCase() })).toBe('v');
  });

  it('without its data key a value cannot be opened, even holding the key ring (crypto-shredding)', () => {
    const ring = new SecretsKeyring([randomBytes(32)]);
    const key = newDataKey();
    const sealed = sealData(key, 'v', at);
    expect(() => openData(newDataKey(), sealed, at)).toThrow();
    // The ring wraps data keys; it opens no value by itself.
    expect(() => openData(Buffer.alloc(32), sealed, at)).toThrow();
    expect(unwrapDataKey(ring, wrapDataKey(ring, key, at), at).equals(key)).toBe(true);
  });

  it('a wrapped key opens with any key of the ring, only at its own secret, and not after its key left the ring', () => {
    const [a, b] = [randomBytes(32), randomBytes(32)];
    const key = newDataKey();
    const wrapped = wrapDataKey(new SecretsKeyring([a]), key, at);
    expect(unwrapDataKey(new SecretsKeyring([b, a]), wrapped, at).equals(key)).toBe(true);
    expect(() => unwrapDataKey(new SecretsKeyring([a]), wrapped, { ...at, secretId: '00000000-0000-4000-8000-000000000002' })).toThrow();
    expect(() => unwrapDataKey(new SecretsKeyring([b]), wrapped, at)).toThrow(/unknown_key/);
  });
});
