// A webhook subscription's signing secret / Authorization value in the vault (reference accounts
// §9.1): a secret of kind `webhook_provider` named `webhook-<name or 'subscription'>`, written
// exactly as POST /secrets writes one (data key stored first, then the sealed event), updated in
// place when a PUT brings a new value, and deleted with its key shredded when the subscription goes.
// Not marked `managed_by`: the secret aggregate refuses every change to a managed secret, and the
// subscription routes must change it.
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { generatedSlug, readSecret } from '@llm/account-model';
import type { SecretsKeyring } from '@llm/oidc';
import type { Pool } from '@llm/postgres';
import { newDataKey, wrapDataKey } from '@llm/vault';
import type { AccountCommands } from '../../accounts/adapters/account-commands.ts';
import { shredKey, storeWrappedKey } from '../../vault/adapters/secret-key-store.ts';
import { Vault } from '../../vault/adapters/vault.ts';

const dataOf = (value: string) => ({ provider: { key: value } });

export class WebhookSecrets {
  private readonly vault: Vault;

  constructor(private readonly pool: Pool, private readonly commands: AccountCommands, private readonly keyring: SecretsKeyring) {
    this.vault = new Vault(pool, keyring);
  }

  /** The value in clear, or undefined when the secret is gone (deleted, or its key shredded). */
  async read(projectId: string, secretId: string): Promise<string | undefined> {
    const row = await readSecret(this.pool, projectId, secretId);
    if (!row) return undefined;
    const opened = await this.vault.open(row);
    const key = (opened?.data.provider as { key?: unknown } | undefined)?.key;
    return typeof key === 'string' ? key : undefined;
  }

  /** A new secret holding `value`; resolves with its id once it is projected. */
  async create(req: Request, name: string, value: string, description: string): Promise<string> {
    const projectId = req.scope.projectId;
    const id = randomUUID();
    const key = newDataKey();
    // The key goes to the key store first: a secret whose event lands is always readable.
    await storeWrappedKey(this.pool, projectId, id, wrapDataKey(this.keyring, key, { ownerId: projectId, secretId: id }));
    // The key is shredded unless the secret's event is (or will be) applied.
    await this.commands.run(req, this.vault.change(projectId, 'accounts.secret.created', {
      secret: this.vault.info({ id, projectId, slug: generatedSlug(name, randomUUID()), kind: 'webhook_provider', name, description, data: dataOf(value), key, writeOnly: true }),
    }, id), { compensate: () => shredKey(this.pool, projectId, id) });
    return id;
  }

  /**
   * Puts `value` into the subscription's secret: updated in place at the version read (retried when
   * changed meanwhile), or a new secret when the old one is gone. Resolves with the id now in use.
   */
  async put(req: Request, secretId: string, name: string, value: string, description: string): Promise<string> {
    const projectId = req.scope.projectId;
    return this.commands.runAtVersion<'accounts.secret.updated', string>(req, { on: ['secret_changed'] }, async () => {
      const row = await readSecret(this.pool, projectId, secretId);
      const opened = row ? await this.vault.open(row) : undefined;
      if (!row || !opened) return { done: await this.create(req, name, value, description) };
      return {
        write: this.vault.change(projectId, 'accounts.secret.updated', {
          secret: this.vault.info({ id: row.id, projectId, slug: row.slug, kind: 'webhook_provider', name, description, data: dataOf(value), key: opened.key, writeOnly: row.write_only }),
        }, row.id, row.version),
        value: row.id,
      };
    });
  }

  /** Shreds the key (the sealed value can never be opened again), then records the deletion. */
  async remove(req: Request, secretId: string): Promise<void> {
    const projectId = req.scope.projectId;
    await shredKey(this.pool, projectId, secretId);
    await this.commands.run(req, this.vault.change(projectId, 'accounts.secret.deleted', { secret_id: secretId, project_id: projectId }, secretId));
  }
}
