// Opening a stored vault secret: its wrapped data key from the key store, unwrapped under the key
// ring, then its sealed data. Shared by the command side's vault and the webhook dispatcher (which
// opens a subscription's signing secret at send time); nothing else holds secrets in clear.
import type { Queryable, SecretRow } from '@llm/account-model';
import { readWrappedKey } from '@llm/accounts-read';
import type { SecretsKeyring } from '@llm/oidc';
import { openData, unwrapDataKey } from './envelope.ts';

export type StoredSecretData = Record<string, unknown>;

/** The stored data in clear with its data key, or undefined when the key is gone (shredded). */
export async function openStoredSecret(
  q: Queryable, keyring: SecretsKeyring, row: Pick<SecretRow, 'id' | 'project_id' | 'kind' | 'sealed_data'>,
): Promise<{ key: Buffer; data: StoredSecretData } | undefined> {
  const wrapped = await readWrappedKey(q, row.project_id, row.id);
  if (wrapped === undefined) return undefined;
  const at = { ownerId: row.project_id, secretId: row.id, kind: row.kind };
  const key = unwrapDataKey(keyring, wrapped, at);
  return { key, data: JSON.parse(openData(key, row.sealed_data, at)) as StoredSecretData };
}
