// Envelope encryption of vault secrets. Each secret has its own 256-bit data key; its `data` is
// sealed under that key (AES-256-GCM, the secret box of @llm/oidc) bound to project, secret id and
// kind, and the data key is wrapped under the key ring (SECRETS_KEY) bound to project and secret id.
// Sealed data goes into the log (kept forever); the wrapped key goes only into the key store, so
// deleting it shreds every copy of the value. Re-wrapping a data key (rotation) never touches the log.
import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret, revealSecret, SecretsKeyring } from '@llm/oidc';

export const DATA_KEY_BYTES = 32;

/** A fresh data key. */
export const newDataKey = (): Buffer => randomBytes(DATA_KEY_BYTES);

const id = (s: string): string => s.toLowerCase();
const valueContext = (ownerId: string, secretId: string, kind: string): string => `vault-value:${id(ownerId)}:${id(secretId)}:${kind}`;
const keyContext = (ownerId: string, secretId: string): string => `vault-key:${id(ownerId)}:${id(secretId)}`;

/** Where a sealed value belongs: its owner (the project of a vault secret, the organization of an SSO provider), its id and kind. */
export interface SecretAddress { ownerId: string; secretId: string; kind: string }

export function sealData(dataKey: Buffer, plaintext: string, at: SecretAddress): string {
  return encryptSecret(plaintext, new SecretsKeyring([dataKey]), { context: valueContext(at.ownerId, at.secretId, at.kind) });
}

/** Throws SecretBoxError when the key, the address or the ciphertext do not match. */
export function openData(dataKey: Buffer, sealed: string, at: SecretAddress): string {
  return revealSecret(decryptSecret(sealed, new SecretsKeyring([dataKey]), { context: valueContext(at.ownerId, at.secretId, at.kind) }));
}

export function wrapDataKey(ring: SecretsKeyring, dataKey: Buffer, at: Omit<SecretAddress, 'kind'>): string {
  return encryptSecret(dataKey.toString('base64url'), ring, { context: keyContext(at.ownerId, at.secretId) });
}

export function unwrapDataKey(ring: SecretsKeyring, wrapped: string, at: Omit<SecretAddress, 'kind'>): Buffer {
  const key = Buffer.from(revealSecret(decryptSecret(wrapped, ring, { context: keyContext(at.ownerId, at.secretId) })), 'base64url');
  if (key.length !== DATA_KEY_BYTES) throw new TypeError('a wrapped data key has the wrong length');
  return key;
}
