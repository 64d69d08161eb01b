// SSO providers of the caller's organization (reference §5). Each change is an accounts.provider.*
// event keyed by the organization; the command answers with the projected provider once the
// projector recorded it (read-your-writes). The client secret is sealed before it leaves this
// process: the topic, the event log and the responses never hold it in plaintext. `test` fetches
// the discovery document through the outbound guard and records the verdict. Pointing a provider
// at another issuer or endpoint drops its stored secret (the projector decides, see
// provider-endpoints.ts) unless the same change sends a new one.
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { decideProviderChange, decideProviderFlags, organizationKey, parseUuid, type ProviderEventType, readOrganization, readProvider, refuse } from '@llm/account-model';
import { providerCreate, providerUpdate, providerView, type ProviderRow } from '@llm/contracts';
import type { AppError } from '@llm/errors';
import type { EventPayloads, ProviderInfo } from '@llm/events';
import { validate, type Handlers, type Guards } from '@llm/http';
import { discoverProvider, type FetchLike } from '@llm/oidc';
import type { Pool } from '@llm/postgres';
import { orThrow, type AccountCommands } from '../adapters/account-commands.ts';
import type { ProviderSecrets } from '../../vault/adapters/provider-secrets.ts';

export interface ProviderRouteDeps {
  pool: Pool;
  commands: AccountCommands;
  /** Client secrets on the vault's envelope (per-provider data key in the key store). */
  secrets: ProviderSecrets;
  /** `fetch` through the outbound guard. */
  fetch: FetchLike;
  allowInsecure: boolean;
}

const providerNotFound = (): AppError => refuse('provider_not_found', 'Provider not found');
const SECRET_DROPPED = {
  code: 'client_secret_dropped',
  message: 'The issuer or an endpoint changed, so the stored client secret was dropped and the sign-ins linked through this provider were unlinked. '
    + 'Set settings.client_secret before this provider can pass its test or sign anyone in.',
};
const NO_SECRET = 'The provider has no client secret: set settings.client_secret.';

export function providerRoutes(deps: ProviderRouteDeps, guards: Guards<'edit'>): Handlers {
  /** Changing providers must not lock everyone out (the provider aggregate's rule, on the flags as stored). */
  async function requireFallback(req: Request): Promise<void> {
    orThrow(decideProviderChange((await readOrganization(deps.pool, req.scope.organizationId))?.flags ?? {}));
  }

  async function existing(req: Request): Promise<ProviderRow> {
    const row = await readProvider(deps.pool, req.scope.organizationId, String(req.params.provider_id ?? ''));
    if (!row) throw providerNotFound();
    return row;
  }

  const commit = <T extends ProviderEventType>(req: Request, type: T, payload: EventPayloads[T], expectedVersion = 0, compensate?: () => Promise<unknown>): Promise<void> =>
    deps.commands.run(req, { type, key: organizationKey(req.scope.organizationId), payload, meta: { expectedVersion } }, compensate ? { compensate } : {});

  /** The projected provider; with `before`, also says when the change cost it its client secret. */
  async function answer(req: Request, id: string, res: { status(n: number): { json(b: unknown): void } }, before?: ProviderRow): Promise<void> {
    const row = await readProvider(deps.pool, req.scope.organizationId, id);
    if (!row) throw providerNotFound();
    const dropped = before !== undefined && before.client_secret_sealed !== '' && row.client_secret_sealed === '';
    res.status(200).json(dropped ? { ...providerView(row), warnings: [SECRET_DROPPED] } : providerView(row));
  }

  const info = (row: ProviderRow, over: Partial<ProviderInfo> = {}): ProviderInfo => ({
    provider_id: row.id, organization_id: row.organization_id, slug: row.slug, name: row.name ?? '', description: row.description ?? '',
    flags_json: JSON.stringify(row.flags), issuer_url: row.issuer_url, client_id: row.client_id, client_secret_sealed: row.client_secret_sealed,
    scopes: row.scopes, extra_json: JSON.stringify(row.extra), ...over,
  });

  return {
    'organizations.providers.create': [...guards.edit, async (req, res) => {
      const body = validate(providerCreate, req.body);
      await requireFallback(req);
      const id = randomUUID();
      // A provider becomes active by passing its test, whatever the client says.
      const flags = { ...(body.flags ?? {}), is_valid: false, is_active: false };
      const sealed = await deps.secrets.seal(req.scope.organizationId, id, body.settings.client_secret);
      // Refused or never appended: no provider will hold this key, it is shredded. (Appended but lagging: it will.)
      await commit(req, 'accounts.provider.created', {
        provider: {
          provider_id: id, organization_id: req.scope.organizationId, slug: body.slug, name: body.name ?? '', description: body.description ?? '',
          flags_json: JSON.stringify(flags), issuer_url: body.settings.issuer_url, client_id: body.settings.client_id,
          client_secret_sealed: sealed, scopes: body.settings.scopes ?? [], extra_json: JSON.stringify(body.settings.extra ?? {}),
        },
      }, 0, () => deps.secrets.shred(req.scope.organizationId, id));
      await answer(req, id, res);
    }],

    'organizations.providers.update': [...guards.edit, async (req, res) => {
      const body = validate(providerUpdate, req.body);
      await requireFallback(req);
      const row = await existing(req);
      const flags: Record<string, boolean> = { ...row.flags, ...(body.flags ?? {}) };
      const s = body.settings;
      // New settings have not been tested: the provider is invalid and inactive until it is.
      if (s !== undefined) { flags.is_valid = false; flags.is_active = false; }
      orThrow(decideProviderFlags(row.flags, flags, body.flags));
      await commit(req, 'accounts.provider.updated', {
        provider: info(row, {
          slug: body.slug ?? row.slug,
          name: body.name === undefined ? row.name ?? '' : body.name ?? '',
          description: body.description === undefined ? row.description ?? '' : body.description ?? '',
          flags_json: JSON.stringify(flags),
          issuer_url: s?.issuer_url ?? row.issuer_url,
          client_id: s?.client_id ?? row.client_id,
          client_secret_sealed: s?.client_secret !== undefined ? await deps.secrets.seal(row.organization_id, row.id, s.client_secret) : row.client_secret_sealed,
          scopes: s?.scopes ?? row.scopes,
          extra_json: JSON.stringify(s?.extra !== undefined ? { ...row.extra, ...s.extra } : row.extra),
        }),
      }, row.version);
      await answer(req, row.id, res, row);
    }],

    'organizations.providers.delete': [...guards.edit, async (req, res) => {
      const row = await readProvider(deps.pool, req.scope.organizationId, String(req.params.provider_id ?? ''));
      if (!row) {
        // Already gone (a retry after a lagging answer or a crash): finish the shredding.
        const id = parseUuid(String(req.params.provider_id ?? ''));
        if (id !== undefined) await deps.secrets.shred(req.scope.organizationId, id);
        throw providerNotFound();
      }
      await commit(req, 'accounts.provider.deleted', { provider_id: row.id, organization_id: row.organization_id });
      // Crypto-shredding: the client secret sealed in this provider's events can no longer be opened.
      await deps.secrets.shred(row.organization_id, row.id);
      res.status(204).end();
    }],

    'organizations.providers.test': [...guards.edit, async (req, res) => {
      await requireFallback(req);
      const row = await existing(req);
      // Without a secret there is nothing to sign in with: no need to ask the (maybe new) issuer.
      const found = row.client_secret_sealed === ''
        ? { ok: false as const, error: { kind: 'no_client_secret', message: NO_SECRET } }
        : await discoverProvider(row.issuer_url, { fetch: deps.fetch, allowInsecure: deps.allowInsecure });
      if (!found.ok) req.log?.info({ provider: row.id, failure: found.error.kind }, 'SSO provider test failed');
      // At the version tested: a verdict on the old issuer must not activate a provider moved meanwhile.
      await commit(req, 'accounts.provider.tested', {
        provider_id: row.id, organization_id: row.organization_id, passed: found.ok, detail: found.ok ? '' : found.error.message.slice(0, 500),
      }, row.version);
      await answer(req, row.id, res);
    }],
  };
}
