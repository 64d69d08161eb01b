// The SSO half of `npm run secrets:rotate`, apart from its I/O: which provider client secrets are
// still sealed directly under a key of the ring (as before envelope encryption) and must be sealed
// again under the provider's own data key. A data key is re-wrapped in the key store; a value
// sealed under the ring itself lives in the accounts log, so only a later event can supersede it.
import type { ProviderSecretRow } from '@llm/account-model';
import { decryptSecret, SecretBoxError, type SecretBoxFailure, type SecretsKeyring, type SecretValue } from '@llm/oidc';
import { keyIdOf } from './key-rotation.ts';

/**
 * Sealed directly under the ring: the value names one of its keys. A value sealed under a data key
 * names that data key's fingerprint, which is never a ring key's (256 random bits each).
 */
export const isRingSealed = (sealed: string, ring: SecretsKeyring): boolean => ring.keyIds.includes(keyIdOf(sealed));

export type ResealPlan =
  | { action: 'current'; providerId: string }
  | { action: 'reseal'; providerId: string; organizationId: string; version: number; secret: SecretValue }
  | { action: 'failed'; providerId: string; organizationId: string; reason: SecretBoxFailure };

/**
 * What one provider's secret needs. Ring-sealed: open it with the ring (no context, as it was
 * sealed) to seal it again. Otherwise it is on the envelope when the provider has a data key; with
 * none, it names a key this ring does not hold (a ring key already removed): reported, left alone.
 */
export function planReseal(row: ProviderSecretRow, ring: SecretsKeyring, hasDataKey: boolean): ResealPlan {
  const at = { providerId: row.id, organizationId: row.organization_id };
  if (!isRingSealed(row.client_secret_sealed, ring)) {
    return hasDataKey ? { action: 'current', providerId: row.id } : { action: 'failed', ...at, reason: 'unknown_key' };
  }
  try {
    return { action: 'reseal', ...at, version: row.version, secret: decryptSecret(row.client_secret_sealed, ring) };
  } catch (err) {
    if (err instanceof SecretBoxError) return { action: 'failed', ...at, reason: err.reason };
    throw err;
  }
}
