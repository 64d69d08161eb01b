// Webhook subscriptions (reference accounts §9.1–§9.3, §9.5). Each write is an accounts.webhook.*
// event keyed `project:<id>:webhooks`, appended and awaited (read-your-writes); the signing secret /
// Authorization value is a vault secret of kind `webhook_provider` (adapters/webhook-secrets.ts),
// opened here, on the side that holds the key ring. Deleting a subscription also deletes its secret
// and shreds its key (the reference leaves it behind: a signing secret must not outlive its use).
// A refused PUT leaves the secret as it was (see putSecret). A query answers at most
// SUBSCRIPTIONS_QUERY_MAX_LIMIT = 1,000 subscriptions, `limit` or not; page on with `next`.
import type { Request, RequestHandler, Response } from 'express';
import { parseUuid, queryWebhooks, readSecret, readWebhook, WEBHOOK_NOT_FOUND, type WebhookEventType, type WebhookRow, webhooksKey, refuse } from '@llm/account-model';
import { webhookCreate, webhookEdit, webhookQuery, webhookTest, type WebhookSubscriptionView } from '@llm/contracts';
import { invalid } from '@llm/errors';
import { uuidv7, type EventPayloads, type Topics } from '@llm/events';
import { RequestValidationError, validate, type Handlers, type Guards } from '@llm/http';
import type { Producer } from '@llm/kafka';
import type { SecretsKeyring } from '@llm/oidc';
import type { OutboundClient } from '@llm/outbound';
import type { Pool } from '@llm/postgres';
import { generateSigningSecret } from '@llm/webhooks';
import type { AccountCommands, AccountWrite } from '../../accounts/adapters/account-commands.ts';
import { WebhookSecrets } from '../adapters/webhook-secrets.ts';
import { testDelivery } from '../adapters/webhook-test-delivery.ts';
import {
  authModeOf, checkSubscriptionFields, givenSecret, requireSecretFor, secretNameOf, subscriptionFromRow, subscriptionOf, subscriptionView,
  webhookFilterOf, webhookInfo, type Subscription,
} from '../domain/webhook-input.ts';

export interface WebhookRouteDeps {
  pool: Pool;
  commands: AccountCommands;
  /** SECRETS_KEY: opens and seals the subscription's vault secret. */
  keyring: SecretsKeyring;
  /** The outbound guard (test deliveries). */
  outbound: OutboundClient;
  producer: Producer;
  topics: Topics;
  /** A test delivery's whole request (§9.6: 10 s). */
  timeoutMs?: number;
}

/** The most subscriptions one query answers (none asked for = all, up to this; page on with `next`). */
export const SUBSCRIPTIONS_QUERY_MAX_LIMIT = 1_000;

/** What a PUT wrote into the vault, to undo it when the subscription's change is refused. */
interface SecretWrite { secretId: string; created: boolean; previous?: { value: string; name: string; description: string } }

/** The path's subscription id (any UUID spelling); anything else is a 422, as a typed path parameter. */
function subscriptionIdOf(req: Request): string {
  const id = parseUuid(String(req.params.subscription_id ?? ''));
  if (id === undefined) throw new RequestValidationError([{ loc: ['path', 'subscription_id'], msg: 'value is not a valid uuid', type: 'uuid_parsing' }]);
  return id;
}
const subscriptionNotFound = () => refuse('webhook_not_found', WEBHOOK_NOT_FOUND);
const secretDescription = (id: string): string => `Secret of webhook subscription ${id}`;

export function webhookRoutes(deps: WebhookRouteDeps, guards: Guards<'view' | 'edit'>): Handlers {
  const { pool, commands } = deps;
  const secrets = new WebhookSecrets(pool, commands, deps.keyring);

  /** A change of the project's subscription `id` (at the version read, for an update). */
  const change = <T extends WebhookEventType>(req: Request, type: T, payload: EventPayloads[T], id: string, expectedVersion = 0): AccountWrite<T> =>
    ({ type, key: webhooksKey(req.scope.projectId), payload, meta: { aggregateId: `webhook:${id}`, expectedVersion } });

  async function stored(req: Request, id: string): Promise<WebhookRow> {
    const row = await readWebhook(pool, req.scope.projectId, id);
    if (!row) throw subscriptionNotFound();
    return row;
  }

  /** `{count:1, subscription}` as stored now, with its secret in clear (when it can still be opened). */
  async function answer(req: Request, res: Response, id: string, secret?: string): Promise<void> {
    const row = await stored(req, id);
    const value = secret ?? await secrets.read(row.project_id, row.secret_id);
    res.status(200).json({ count: 1, subscription: subscriptionView(row, value) });
  }

  /**
   * A change decided on the subscription as read and recorded at that version: a concurrent change
   * is never silently undone; the loser reads again and re-applies.
   */
  async function replace(req: Request, id: string, edit: (row: WebhookRow) => Promise<Subscription | undefined>, compensate?: () => Promise<unknown>): Promise<void> {
    await commands.runAtVersion(req, { on: ['webhook_changed'], ...(compensate ? { compensate } : {}) }, async () => {
      const row = await stored(req, id);
      const next = await edit(row);
      if (next === undefined) return { done: undefined };
      return { write: change(req, 'accounts.webhook.updated', { subscription: webhookInfo(next) }, id, row.version), value: undefined };
    });
  }

  const create: RequestHandler = async (req, res) => {
    const body = validate(webhookCreate, req.body).subscription;
    const mode = authModeOf(body.data);
    const given = givenSecret(body.secret);
    requireSecretFor(mode, given);
    checkSubscriptionFields(body, ['subscription']);
    const secret = given ?? generateSigningSecret();
    const projectId = req.scope.projectId;
    const id = uuidv7();
    const secretId = await secrets.create(req, secretNameOf(body.name), secret, secretDescription(id));
    // Client flags are ignored on create: a new subscription is active.
    const subscription = subscriptionOf(body, { id, projectId, secretId }, true);
    // The secret is removed unless the subscription's event is (or will be) applied.
    await commands.run(req, change(req, 'accounts.webhook.created', { subscription: webhookInfo(subscription) }, id), { compensate: () => secrets.remove(req, secretId) });
    await answer(req, res, id, secret);
  };

  const fetch: RequestHandler = async (req, res) => answer(req, res, subscriptionIdOf(req));

  /**
   * A PUT's new value goes into the subscription's vault secret before the subscription's change is
   * recorded (the change names the secret, which must exist). When that change is finally refused
   * (404, 409 after retries, …) the write is undone: a secret created for it is deleted, an updated
   * one gets its previous name, description and value back — unless it no longer holds this
   * request's value (a later PUT's value stays). A crash between the two leaves the new value in
   * the subscription's secret (or an orphan secret when one had to be created, listed under
   * /secrets); the client, having no answer, repeats the PUT.
   */
  async function putSecret(req: Request, row: WebhookRow, name: string | null | undefined, value: string): Promise<SecretWrite> {
    const before = await readSecret(pool, row.project_id, row.secret_id);
    const previous = before ? await secrets.read(row.project_id, row.secret_id) : undefined;
    const secretId = await secrets.put(req, row.secret_id, secretNameOf(name), value, secretDescription(row.id));
    return { secretId, created: secretId !== row.secret_id, ...(before && previous !== undefined ? { previous: { value: previous, name: before.name, description: before.description } } : {}) };
  }

  async function undoSecret(req: Request, w: SecretWrite, value: string): Promise<void> {
    if (w.created) return secrets.remove(req, w.secretId);
    if (!w.previous || await secrets.read(req.scope.projectId, w.secretId) !== value) return;
    await secrets.put(req, w.secretId, w.previous.name, w.previous.value, w.previous.description);
  }

  const update: RequestHandler = async (req, res) => {
    const id = subscriptionIdOf(req);
    const body = validate(webhookEdit, req.body).subscription;
    if (body.id !== id) throw invalid('webhook_id_mismatch', 'Path subscription_id does not match body id');
    checkSubscriptionFields(body, ['subscription']);
    const given = givenSecret(body.secret);
    // An unknown subscription is a 404 before the vault is touched.
    await stored(req, id);
    let written: SecretWrite | undefined;
    // Refused in the end: the secret's value is put back (appended but not yet projected, the change
    // will still apply with the new value and it stays).
    const undo = async (): Promise<void> => {
      if (!written || given === undefined) return;
      await undoSecret(req, written, given).catch((undoErr: unknown) => {
        req.log?.error({ secret: written?.secretId, err: undoErr instanceof Error ? undoErr.message : 'error' }, 'webhook secret not restored after a refused PUT');
      });
    };
    await replace(req, id, async (row) => {
      // A new value goes into the subscription's secret (created again if it is gone); omitted = unchanged.
      if (given !== undefined && written === undefined) written = await putSecret(req, row, body.name, given);
      return subscriptionOf(body, { id: row.id, projectId: row.project_id, secretId: written?.secretId ?? row.secret_id });
    }, undo);
    await answer(req, res, id);
  };

  const remove: RequestHandler = async (req, res) => {
    const id = subscriptionIdOf(req);
    const row = await stored(req, id);
    await commands.run(req, change(req, 'accounts.webhook.deleted', { subscription_id: row.id, project_id: row.project_id }, row.id));
    // Deviation from the reference (which leaves the vault secret behind): the signing secret goes
    // with its subscription, its key shredded first. Failing here leaves a secret the user can still
    // delete from /secrets; the subscription is gone either way.
    await secrets.remove(req, row.secret_id).catch((err: unknown) => {
      req.log?.error({ secret: row.secret_id, err: err instanceof Error ? err.message : 'error' }, 'webhook secret not deleted');
    });
    res.status(204).end();
  };

  const activation = (isActive: boolean): RequestHandler => async (req, res) => {
    const id = subscriptionIdOf(req);
    // Idempotent: already in that state, nothing is recorded.
    await replace(req, id, async (row) => (row.is_active === isActive ? undefined : { ...subscriptionFromRow(row), isActive }));
    await answer(req, res, id);
  };

  const query: RequestHandler = async (req, res) => {
    const body = validate(webhookQuery, req.body ?? {});
    const filter = webhookFilterOf(body);
    const rows = await queryWebhooks(pool, req.scope.projectId, { ...filter, limit: Math.min(filter.limit ?? SUBSCRIPTIONS_QUERY_MAX_LIMIT, SUBSCRIPTIONS_QUERY_MAX_LIMIT) });
    const subscriptions: WebhookSubscriptionView[] = rows.map((row) => subscriptionView(row));
    res.status(200).json({ count: subscriptions.length, subscriptions });
  };

  const test: RequestHandler = async (req, res) => {
    const body = validate(webhookTest, req.body);
    const byId = body.subscription_id ?? undefined;
    const draft = body.subscription ?? undefined;
    if ((byId === undefined) === (draft === undefined)) throw invalid('webhook_test_target', 'Provide exactly one of subscription_id or subscription');
    if (draft) checkSubscriptionFields(draft, ['subscription']);
    const storedId = byId ?? draft?.id ?? undefined;
    const row = storedId === undefined ? undefined : await stored(req, storedId);
    const mode = draft ? authModeOf(draft.data) : (row!.auth_mode === 'authorization' ? 'authorization' : 'signature');
    // Secret: the body's, else the stored one; a draft without one signs with a throwaway.
    const resolved = givenSecret(draft?.secret) ?? (row ? await secrets.read(row.project_id, row.secret_id) : undefined);
    requireSecretFor(mode, resolved);
    const secret = resolved ?? generateSigningSecret();
    const fields = draft
      ? { name: draft.name, tags: draft.tags, meta: draft.meta, url: draft.data.url, headers: draft.data.headers, payload_fields: draft.data.payload_fields ?? undefined }
      : { name: row!.name, tags: row!.tags, meta: row!.meta, url: row!.url, headers: row!.headers, payload_fields: row!.payload_fields ?? undefined };
    const delivery = await testDelivery({ pool, outbound: deps.outbound, producer: deps.producer, topics: deps.topics, timeoutMs: deps.timeoutMs ?? 10_000 }, {
      projectId: req.scope.projectId, organizationId: req.scope.organizationId, userId: req.scope.userId, requestId: req.id,
    }, {
      ...(row ? { storedId: row.id } : {}),
      subscription: {
        ...fields, auth_mode: mode,
        ...(row ? { created_at: row.created_at.toISOString(), updated_at: row.updated_at?.toISOString() ?? null } : {}),
      },
      secret,
    });
    res.status(200).json({ count: 1, delivery });
  };

  return {
    'webhooks.subscriptions.create': [...guards.edit, create],
    'webhooks.subscriptions.test': [...guards.edit, test],
    'webhooks.subscriptions.query': [...guards.view, query],
    'webhooks.subscriptions.fetch': [...guards.view, fetch],
    'webhooks.subscriptions.edit': [...guards.edit, update],
    'webhooks.subscriptions.delete': [...guards.edit, remove],
    'webhooks.subscriptions.start': [...guards.edit, activation(true)],
    'webhooks.subscriptions.stop': [...guards.edit, activation(false)],
  };
}
