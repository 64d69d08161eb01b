// The command side's vault: opens a stored secret (unwrapping its data key from the key store),
// seals a new version of its data under the same key, and records the change as an event. The one
// place that holds a secret in clear, for as long as a request needs it.
import { type SecretEventType, type SecretRow, secretsKey } from '@llm/account-model';
import type { SecretKind } from '@llm/contracts';
import type { EventPayloads, SecretInfo } from '@llm/events';
import type { SecretsKeyring } from '@llm/oidc';
import type { Pool } from '@llm/postgres';
import { isConfigured, openStoredSecret, publicData, sealData } from '@llm/vault';
import type { AccountWrite } from '../../accounts/adapters/account-commands.ts';

export type SecretData = Record<string, unknown>;

/** A secret as the vault writes it. */
export interface SecretDraft {
  id: string; projectId: string; slug: string; kind: SecretKind; name: string; description: string;
  data: SecretData; key: Buffer; writeOnly: boolean; managedBy?: string;
}

export class Vault {
  constructor(private readonly pool: Pool, private readonly keyring: SecretsKeyring) {}

  /** The stored data in clear with its data key, or undefined when the key is gone (shredded). */
  open(row: SecretRow): Promise<{ key: Buffer; data: SecretData } | undefined> {
    return openStoredSecret(this.pool, this.keyring, row);
  }

  /** The event form of a secret: `data` sealed whole, and without credentials in clear. */
  info(d: SecretDraft): SecretInfo {
    return {
      secret_id: d.id, project_id: d.projectId, slug: d.slug, kind: d.kind, name: d.name, description: d.description,
      public_data_json: JSON.stringify(publicData(d.kind, d.data)),
      sealed_data: sealData(d.key, JSON.stringify(d.data), { ownerId: d.projectId, secretId: d.id, kind: d.kind }),
      write_only: d.writeOnly, managed_by: d.managedBy ?? '', configured: isConfigured(d.kind, d.data) || (d.kind === 'subscription_provider' && d.data.login !== undefined),
    };
  }

  /** The change of a project's secret, for the command handler (AccountCommands.run / runAtVersion). */
  change<T extends SecretEventType>(projectId: string, type: T, payload: EventPayloads[T], secretId: string, expectedVersion = 0): AccountWrite<T> {
    return { type, key: secretsKey(projectId), payload, meta: { aggregateId: `secret:${secretId}`, expectedVersion } };
  }
}
