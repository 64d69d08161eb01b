// The vault (reference accounts §6): /secrets and its /vault/v1/secrets alias. Each write is an
// accounts.secret.* event keyed `project:<id>:secrets` whose `data` is sealed under the secret's own
// data key (@llm/vault); the key, wrapped under the key ring, is kept in the key store and destroyed
// on delete (crypto-shredding). Reads are served here, on the side that holds the key ring: the
// query service never holds key material.
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { decideSecretChange, generatedSlug, listSecrets, nextProviderKeyName, parseUuid, readSecret, secretNames, type SecretRow, refuse } from '@llm/account-model';
import { secretCreate, secretUpdate, type PublicSecret, type SecretKind, type SecretUpdate } from '@llm/contracts';
import { invalid } from '@llm/errors';
import type { SecretInfo } from '@llm/events';
import { RequestValidationError, validate, type Handlers, type Guards } from '@llm/http';
import type { SecretsKeyring } from '@llm/oidc';
import type { Pool } from '@llm/postgres';
import { mergeUpdate, newDataKey, preview, stringValueOf, withoutCredentials, wrapDataKey } from '@llm/vault';
import { orThrow, type AccountCommands, type AccountWrite } from '../../accounts/adapters/account-commands.ts';
import { Vault, type SecretDraft } from '../adapters/vault.ts';
import { shredKey, storeWrappedKey } from '../adapters/secret-key-store.ts';
import { providerLabel, refuseLoginFields, requireValue, vetProviderUrl, withServerFields } from '../domain/secret-input.ts';

export interface SecretRouteDeps {
  pool: Pool;
  commands: AccountCommands;
  /** SECRETS_KEY: wraps each secret's data key. */
  keyring: SecretsKeyring;
  /** Permit http:// custom provider URLs (OUTBOUND_ALLOW_INSECURE_HTTP). */
  allowInsecure: boolean;
}

/** The path's secret id (any UUID spelling); anything else is a 422, as a typed path parameter. */
function secretIdOf(req: Request): string {
  const id = parseUuid(String(req.params.secret_id ?? ''));
  if (id === undefined) throw new RequestValidationError([{ loc: ['path', 'secret_id'], msg: 'value is not a valid uuid', type: 'uuid_parsing' }]);
  return id;
}
const secretNotFound = () => refuse('secret_not_found', 'Secret not found');
const refused = (loc: string[], msg: string) => new RequestValidationError([{ loc: ['body', ...loc], msg, type: 'value_error' }]);
type Data = Record<string, unknown>;

export function secretRoutes(deps: SecretRouteDeps, guards: Guards<'view' | 'edit'>): Handlers {
  const { pool, keyring } = deps;

  const vault = new Vault(pool, keyring);
  const { commands } = deps;
  const openRow = (row: SecretRow) => vault.open(row);

  async function publicView(row: SecretRow, open = true): Promise<PublicSecret> {
    const kind = row.kind as SecretKind;
    const opened = open ? await openRow(row) : undefined;
    const full = opened?.data ?? row.public_data;
    const value = opened ? stringValueOf(kind, full) : undefined;
    // A write-only row never shows its credentials; a subscription's login is never shown at all.
    const data = row.write_only || kind === 'subscription_provider' ? withoutCredentials(kind, full) : full;
    return {
      id: row.id, slug: row.slug, kind: row.kind,
      header: { ...(row.name ? { name: row.name } : {}), ...(row.description ? { description: row.description } : {}) },
      data,
      lifecycle: {
        created_at: row.created_at.toISOString(), ...(row.updated_at ? { updated_at: row.updated_at.toISOString() } : {}),
        ...(row.updated_by_id ? { updated_by_id: row.updated_by_id } : {}),
      },
      write_only: row.write_only,
      ...(row.managed_by ? { managed_by: row.managed_by } : {}),
      value_status: { configured: row.configured, ...(row.write_only && row.configured && value !== undefined && value !== '' ? { preview: preview(value) } : {}) },
    };
  }

  async function answer(req: Request, res: { status(n: number): { json(b: unknown): void } }, id: string): Promise<void> {
    const row = await readSecret(pool, req.scope.projectId, id);
    if (!row) throw secretNotFound();
    res.status(200).json(await publicView(row));
  }

  const info = (d: SecretDraft): SecretInfo => vault.info(d);

  const list: RequestHandler = async (req, res) => {
    const rows = await listSecrets(pool, req.scope.projectId);
    const views: PublicSecret[] = [];
    for (const row of rows) {
      views.push(await publicView(row).catch((err: unknown) => {
        // One row the ring cannot open (its key removed too early) must not hide the others.
        req.log?.error({ secret: row.id, err: err instanceof Error ? err.name : 'error' }, 'vault secret cannot be opened');
        return publicView(row, false);
      }));
    }
    res.status(200).json(views);
  };

  const fetch: RequestHandler = async (req, res) => answer(req, res, String(req.params.secret_id ?? ''));

  const create: RequestHandler = async (req, res) => {
    const body = validate(secretCreate, req.body);
    if (body.managed_by !== undefined) throw invalid('managed_by_refused', 'managed_by is set by the platform, not by clients.');
    const kind = body.secret.kind;
    if (kind !== 'provider_key' && !body.header.name && !body.header.description) throw refused(['header'], 'a name or a description is required');
    const parsed = body.secret.data as Data;
    refuseLoginFields(kind, parsed);
    requireValue(kind, parsed);
    if (kind === 'custom_provider' && parsed.models === undefined) throw refused(['secret', 'data', 'models'], 'a custom provider lists its models ([] for none)');
    const provider = parsed.provider as { url?: string } | undefined;
    if (kind === 'custom_provider' && provider?.url !== undefined) vetProviderUrl(provider.url, deps.allowInsecure);
    const projectId = req.scope.projectId;
    const name = body.header.name
      || (kind === 'provider_key' ? nextProviderKeyName(providerLabel(String(parsed.kind)), await secretNames(pool, projectId, 'provider_key')) : '');
    const id = randomUUID();
    const slug = body.slug ?? generatedSlug(name || kind, randomUUID());
    const key = newDataKey();
    // The key goes to the key store first: a secret whose event lands is always readable.
    await storeWrappedKey(pool, projectId, id, wrapDataKey(keyring, key, { ownerId: projectId, secretId: id }));
    // The key is shredded unless the secret's event is (or will be) applied.
    await commands.run(req, vault.change(projectId, 'accounts.secret.created', {
      secret: info({ id, projectId, slug, kind, name, description: body.header.description ?? '', data: withServerFields(kind, name, parsed), key, writeOnly: body.write_only }),
    }, id), { compensate: () => shredKey(pool, projectId, id) });
    await answer(req, res, id);
  };

  const update: RequestHandler = async (req, res) => {
    const body = validate(secretUpdate, req.body);
    if (body.write_only !== undefined) throw new RequestValidationError([{ loc: ['body', 'write_only'], msg: 'write_only is selected when a secret is created and cannot be updated', type: 'value_error' }]);
    if (body.managed_by !== undefined) throw invalid('managed_by_refused', 'managed_by is set by the platform, not by clients.');
    const id = secretIdOf(req);
    // Decided on what was read, recorded at that version: a concurrent change (another edit, a
    // runner's login push) is never silently undone; the loser reads again and re-applies.
    const updated = await commands.runAtVersion(req, { on: ['secret_changed'] }, async () => {
      const row = await readSecret(pool, req.scope.projectId, id);
      if (!row) throw secretNotFound();
      return { write: await updateOf(body, row), value: row.id };
    });
    return answer(req, res, updated);
  };

  /** The secret's update as decided on the row read: its data merged, sealed again under its key, at the row's version. */
  async function updateOf(body: SecretUpdate, row: SecretRow): Promise<AccountWrite<'accounts.secret.updated'>> {
    orThrow(decideSecretChange({ managedBy: row.managed_by ?? '' }));
    const opened = await openRow(row);
    if (!opened) throw secretNotFound();
    const storedKind = row.kind as SecretKind;
    const kind = body.secret?.kind ?? storedKind;
    let data = opened.data;
    if (body.secret) {
      refuseLoginFields(kind, body.secret.data as Data);
      const merged = mergeUpdate(kind, { kind: storedKind, data: opened.data }, body.secret.data as Data);
      if ('problem' in merged) {
        throw merged.problem === 'empty_value'
          ? invalid('secret_value_empty', 'A secret value cannot be empty; omit the field to keep the stored value.')
          : invalid('secret_value_required', "Changing a secret's kind or provider requires a new credential value; send the value with the change.");
      }
      data = merged;
      const provider = data.provider as { url?: string } | undefined;
      if (kind === 'custom_provider' && provider?.url !== undefined) vetProviderUrl(provider.url, deps.allowInsecure);
    }
    const name = body.header?.name === undefined ? row.name : body.header.name ?? '';
    const description = body.header?.description === undefined ? row.description : body.header.description ?? '';
    return vault.change(row.project_id, 'accounts.secret.updated', {
      secret: info({ id: row.id, projectId: row.project_id, slug: row.slug, kind, name, description, data: withServerFields(kind, name, data, { kind: storedKind, data: opened.data }), key: opened.key, writeOnly: row.write_only }),
    }, row.id, row.version);
  }

  const remove: RequestHandler = async (req, res) => {
    const id = secretIdOf(req);
    const row = await readSecret(pool, req.scope.projectId, id);
    if (row) orThrow(decideSecretChange({ managedBy: row.managed_by ?? '' }));
    // Crypto-shredding first: without its data key the sealed value (in the topic, in any copy of
    // the tables) can never be opened again, even with the key ring. Done whether or not the row is
    // (still) there, so a retry after a lagging answer or a crash completes it.
    await shredKey(pool, req.scope.projectId, id);
    if (row) await commands.run(req, vault.change(row.project_id, 'accounts.secret.deleted', { secret_id: row.id, project_id: row.project_id }, row.id));
    res.status(204).end();
  };

  return {
    'secrets.list': [...guards.view, list], 'vault.secrets.list': [...guards.view, list],
    'secrets.fetch': [...guards.view, fetch], 'vault.secrets.fetch': [...guards.view, fetch],
    'secrets.create': [...guards.edit, create], 'vault.secrets.create': [...guards.edit, create],
    'secrets.update': [...guards.edit, update], 'vault.secrets.update': [...guards.edit, update],
    'secrets.delete': [...guards.edit, remove], 'vault.secrets.delete': [...guards.edit, remove],
  };
}
