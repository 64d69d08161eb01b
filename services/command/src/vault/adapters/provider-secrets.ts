// SSO provider client secrets on the vault's envelope: each provider has its own data key in the
// key store (owner = its organization), its client secret is sealed under it, and the key is
// wrapped under the key ring — so `npm run secrets:rotate` covers these secrets too, and deleting a
// provider shreds its secret in every copy of the log. Secrets sealed before this (directly under
// the ring) still open with the ring until `npm run secrets:rotate` seals them again under a data
// key (an accounts.provider.secret_resealed event, see secrets-rotate.ts).
import { readWrappedKey } from '@llm/accounts-read';
import { decryptSecret, SecretValue, type SecretsKeyring } from '@llm/oidc';
import type { Pool } from '@llm/postgres';
import { newDataKey, openData, sealData, unwrapDataKey, wrapDataKey } from '@llm/vault';
import { shredKey, storeWrappedKey } from './secret-key-store.ts';
import { isRingSealed } from '../domain/sso-reseal.ts';

const KIND = 'sso_provider';

export class ProviderSecrets {
  constructor(private readonly pool: Pool, private readonly keyring: SecretsKeyring) {}

  private async dataKey(organizationId: string, providerId: string): Promise<Buffer | undefined> {
    const wrapped = await readWrappedKey(this.pool, organizationId, providerId);
    return wrapped === undefined ? undefined : unwrapDataKey(this.keyring, wrapped, { ownerId: organizationId, secretId: providerId });
  }

  /** Seals a client secret under the provider's data key (made and stored on first use). */
  async seal(organizationId: string, providerId: string, plaintext: string): Promise<string> {
    let key = await this.dataKey(organizationId, providerId);
    if (!key) {
      key = newDataKey();
      await storeWrappedKey(this.pool, organizationId, providerId, wrapDataKey(this.keyring, key, { ownerId: organizationId, secretId: providerId }));
      // Two first seals at once: the row that landed wins, and this value must open with it.
      key = (await this.dataKey(organizationId, providerId)) ?? key;
    }
    return sealData(key, plaintext, { ownerId: organizationId, secretId: providerId, kind: KIND });
  }

  /** Opens a provider's sealed client secret (throws SecretBoxError when it cannot be opened). */
  async open(organizationId: string, providerId: string, sealed: string): Promise<SecretValue> {
    // By the key the value names, not by whether a data key exists: a ring-sealed provider may have
    // one already (a re-seal or a new secret whose event lost a race) while its row keeps the old value.
    if (isRingSealed(sealed, this.keyring)) return decryptSecret(sealed, this.keyring);
    const key = await this.dataKey(organizationId, providerId);
    if (!key) return decryptSecret(sealed, this.keyring);
    return new SecretValue(openData(key, sealed, { ownerId: organizationId, secretId: providerId, kind: KIND }));
  }

  /** Destroys the provider's data key: its client secret, wherever a copy of it remains, is gone. */
  shred(organizationId: string, providerId: string): Promise<void> {
    return shredKey(this.pool, organizationId, providerId);
  }
}
