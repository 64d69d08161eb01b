// The one reader of webhook_subscriptions (0011-webhooks.sql; written by projector-accounts only):
// the webhook aggregate's state, the rows the subscription routes answer from, and the active
// subscriptions the dispatcher fans an event out to.
import type { WebhookEvent, WebhookState } from './rules.ts';
import { asUuid, type Queryable } from '../../queryable.ts';
import { existingProjects } from '../project/projects.ts';

export interface WebhookRow {
  id: string; project_id: string; name: string | null; description: string | null;
  tags: Record<string, unknown> | null; meta: Record<string, unknown> | null; is_active: boolean;
  url: string; headers: Record<string, string> | null; payload_fields: unknown; auth_mode: string;
  /** null = every subscribable event type. */
  event_types: string[] | null;
  secret_id: string; created_at: Date; updated_at: Date | null; created_by_id: string | null; updated_by_id: string | null; version: number;
}

const COLUMNS = `id::text AS id, project_id::text AS project_id, name, description, tags, meta, is_active, url, headers, payload_fields,
  auth_mode, event_types, secret_id::text AS secret_id, created_at, updated_at, created_by_id, updated_by_id, version`;

/** What a subscription event is decided on: its project, the subscription, and its secret. */
export async function loadWebhookState(q: Queryable, e: WebhookEvent): Promise<WebhookState> {
  const [projectId, id, secretId] = e.type === 'accounts.webhook.deleted'
    ? [e.payload.project_id, e.payload.subscription_id, null]
    : [e.payload.subscription.project_id, e.payload.subscription.subscription_id, e.payload.subscription.secret_id];
  // One query after the other: `q` may be the projector's transaction client.
  const projects = await existingProjects(q, [projectId]);
  const subs = (await q.query<{ id: string; project_id: string; version: number }>(
    'SELECT id::text AS id, project_id::text AS project_id, version FROM webhook_subscriptions WHERE id = $1::uuid', [asUuid(id)],
  )).rows;
  const secrets = secretId === null ? [] : (await q.query<{ id: string; project_id: string }>(
    'SELECT id::text AS id, project_id::text AS project_id FROM secrets WHERE id = $1::uuid', [asUuid(secretId)],
  )).rows;
  return {
    projects: projects.map((p) => ({ id: p })),
    subscriptions: subs.map((x) => ({ id: x.id, projectId: x.project_id, version: x.version })),
    secrets: secrets.map((x) => ({ id: x.id, projectId: x.project_id })),
  };
}

/** A subscription of the project by id (any UUID spelling). */
export async function readWebhook(q: Queryable, projectId: string, id: string): Promise<WebhookRow | undefined> {
  const r = await q.query<WebhookRow>(`SELECT ${COLUMNS} FROM webhook_subscriptions WHERE project_id = $1::uuid AND id = $2::uuid`, [asUuid(projectId), asUuid(id)]);
  return r.rows[0];
}

export interface WebhookFilter {
  /** Case-insensitive substring of the name / description. */
  name?: string;
  description?: string;
  /** JSON containment on tags. */
  tags?: Record<string, unknown>;
  /** Ids below this one (UUIDv7 paging, descending). */
  before?: string;
  limit?: number;
}

/** The project's subscriptions by id descending (UUIDv7: newest first), filtered. */
export async function queryWebhooks(q: Queryable, projectId: string, f: WebhookFilter = {}): Promise<WebhookRow[]> {
  const where = ['project_id = $1::uuid'];
  const values: unknown[] = [asUuid(projectId)];
  const add = (sql: (n: number) => string, v: unknown): void => { values.push(v); where.push(sql(values.length)); };
  if (f.name !== undefined) add((n) => `strpos(lower(coalesce(name, '')), lower($${n})) > 0`, f.name);
  if (f.description !== undefined) add((n) => `strpos(lower(coalesce(description, '')), lower($${n})) > 0`, f.description);
  if (f.tags !== undefined) add((n) => `coalesce(tags, '{}'::jsonb) @> $${n}::jsonb`, JSON.stringify(f.tags));
  if (f.before !== undefined) add((n) => `id < $${n}::uuid`, asUuid(f.before));
  const limit = f.limit !== undefined ? ` LIMIT ${Math.max(1, Math.floor(f.limit))}` : '';
  const r = await q.query<WebhookRow>(`SELECT ${COLUMNS} FROM webhook_subscriptions WHERE ${where.join(' AND ')} ORDER BY id DESC${limit}`, values);
  return r.rows;
}

/** The active subscriptions of a project whose event types include this one (null = all). */
export async function activeWebhooksFor(q: Queryable, projectId: string, eventType: string): Promise<WebhookRow[]> {
  const r = await q.query<WebhookRow>(
    `SELECT ${COLUMNS} FROM webhook_subscriptions
      WHERE project_id = $1::uuid AND is_active AND (event_types IS NULL OR $2 = ANY(event_types)) ORDER BY id`,
    [asUuid(projectId), eventType],
  );
  return r.rows;
}
