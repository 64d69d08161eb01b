// Encryption at rest for client secrets (and any small secret): AES-256-GCM under a key from
// `SECRETS_KEY`. The sealed form is text, safe to store in events and tables:
//
//   v1.<key id>.<iv>.<ciphertext>.<tag>      (base64url parts)
//
// - `v1` names the algorithm and layout, so a later scheme can sit beside it.
// - The key id is a fingerprint of the key (HMAC of a fixed label), so rotation needs no key
//   naming: list the new key first in `SECRETS_KEY`, keep the old one after it until everything
//   has been re-sealed. A sealed value says which key opens it; unknown ids fail fast.
// - Version, key id and an optional caller context (e.g. the provider id) are authenticated as
//   associated data: a ciphertext copied to another provider's record does not open there.
// - A fresh 96-bit IV per seal. Errors never contain the plaintext or the key.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { AppError } from '@llm/errors';
import { revealSecret, SecretValue } from './secret-value.ts';

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PART = /^[A-Za-z0-9_-]+$/;

export type SecretBoxFailure = 'malformed' | 'unknown_key' | 'authentication_failed';

export class SecretBoxError extends AppError {
  readonly reason: SecretBoxFailure;

  constructor(reason: SecretBoxFailure) {
    super({ code: 'secret_undecryptable', kind: 'internal', message: `stored secret cannot be decrypted (${reason})` });
    this.name = 'SecretBoxError';
    this.reason = reason;
  }
}

// Key bytes live here, out of reach of anything holding a keyring (loggers, debuggers' inspect).
const keyMaterial = new WeakMap<SecretsKeyring, Map<string, Buffer>>();

/** The keys of `SECRETS_KEY`: the first seals, any opens. Prints as its key ids only. */
export class SecretsKeyring {
  readonly currentKeyId: string;
  readonly keyIds: readonly string[];

  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new TypeError('at least one secrets key is required');
    const byId = new Map<string, Buffer>();
    for (const [i, key] of keys.entries()) {
      if (key.length !== KEY_BYTES) throw new TypeError(`secrets key #${i + 1} must be ${KEY_BYTES} bytes`);
      byId.set(keyId(key), Buffer.from(key));
    }
    keyMaterial.set(this, byId);
    this.currentKeyId = keyId(keys[0]!);
    this.keyIds = [...byId.keys()];
  }

  toJSON(): { keyIds: readonly string[] } {
    return { keyIds: this.keyIds };
  }

  [inspect.custom](): string {
    return `SecretsKeyring(${this.keyIds.join(', ')})`;
  }
}

const keyOf = (keyring: SecretsKeyring, id: string): Buffer | undefined => keyMaterial.get(keyring)?.get(id);

const keyId = (key: Buffer): string => createHmac('sha256', key).update('llm secrets key id').digest().subarray(0, 6).toString('base64url');

/**
 * Keys from `SECRETS_KEY`: comma-separated base64 (or base64url) strings of exactly 32 bytes each,
 * newest first. Throws a message naming the position of a bad key, never its value.
 */
export function parseSecretsKeys(value: string): SecretsKeyring {
  const parts = value.split(',').map((s) => s.trim()).filter(Boolean);
  const keys = parts.map((part, i) => {
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(part)) throw new TypeError(`secrets key #${i + 1} is not base64`);
    const key = Buffer.from(part.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length !== KEY_BYTES) throw new TypeError(`secrets key #${i + 1} must decode to ${KEY_BYTES} bytes`);
    return key;
  });
  return new SecretsKeyring(keys);
}

const aad = (keyIdValue: string, context: string): Buffer => Buffer.from(`${VERSION}.${keyIdValue}.${context}`, 'utf8');

export interface SealOptions {
  /** Binds the ciphertext to its owner, e.g. `sso_provider:<id>`; the same context must open it. */
  context?: string;
}

export function encryptSecret(plaintext: string | SecretValue, keyring: SecretsKeyring, options: SealOptions = {}): string {
  const kid = keyring.currentKeyId;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(keyring, kid)!, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(kid, options.context ?? ''));
  const ciphertext = Buffer.concat([cipher.update(revealSecret(plaintext), 'utf8'), cipher.final()]);
  return [VERSION, kid, iv.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** Opens a sealed secret. Throws `SecretBoxError` (malformed, unknown_key, authentication_failed). */
export function decryptSecret(sealed: string, keyring: SecretsKeyring, options: SealOptions = {}): SecretValue {
  const parts = typeof sealed === 'string' ? sealed.split('.') : [];
  if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretBoxError('malformed');
  const [, kid, ivText, ctText, tagText] = parts as [string, string, string, string, string];
  // An empty plaintext seals to an empty ciphertext part.
  if (![kid, ivText, tagText].every((p) => PART.test(p)) || !(ctText === '' || PART.test(ctText))) throw new SecretBoxError('malformed');
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('malformed');
  const key = keyOf(keyring, kid);
  if (!key) throw new SecretBoxError('unknown_key');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(kid, options.context ?? ''));
    decipher.setAuthTag(tag);
    const plaintext = Buffer.concat([decipher.update(Buffer.from(ctText, 'base64url')), decipher.final()]);
    return new SecretValue(plaintext.toString('utf8'));
  } catch {
    throw new SecretBoxError('authentication_failed');
  }
}

/** Whether `sealed` was made under an older key and should be re-sealed with the current one. */
export const needsReseal = (sealed: string, keyring: SecretsKeyring): boolean => sealed.split('.')[1] !== keyring.currentKeyId;
