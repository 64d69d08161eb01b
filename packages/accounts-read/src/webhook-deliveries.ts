// The one reader of webhook_deliveries (0011-webhooks.sql; written by the webhook dispatcher's
// deliveries projector only): a delivery by id or by its (subscription, event) pair, the project's
// deliveries filtered and windowed (created_at descending, then id), and the delivery as answered
// (reference accounts §9.4, nulls omitted).
import type { WebhookDeliveryView } from '@llm/contracts';
import { asUuid, type Queryable } from '@llm/account-model';

export interface WebhookDeliveryRow {
  id: string; project_id: string; subscription_id: string; event_id: string;
  status: Record<string, unknown>; data: Record<string, unknown> | null;
  attempts: number; final: boolean; created_at: Date; updated_at: Date | null; last_record_id: string;
}

const COLUMNS = `id::text AS id, project_id::text AS project_id, subscription_id::text AS subscription_id, event_id::text AS event_id,
  status, data, attempts, final, created_at, updated_at, last_record_id::text AS last_record_id`;

/** A delivery as a reader sees it: none once older than the project's retention (`retainedFrom`; null = nothing expires). */
export async function readDelivery(q: Queryable, projectId: string, id: string, retainedFrom: Date | null): Promise<WebhookDeliveryRow | undefined> {
  const r = await q.query<WebhookDeliveryRow>(
    `SELECT ${COLUMNS} FROM webhook_deliveries WHERE project_id = $1::uuid AND id = $2::uuid AND ($3::timestamptz IS NULL OR created_at >= $3::timestamptz)`,
    [asUuid(projectId), asUuid(id), retainedFrom]);
  return r.rows[0];
}

export async function readDeliveryOf(q: Queryable, projectId: string, subscriptionId: string, eventId: string): Promise<WebhookDeliveryRow | undefined> {
  const r = await q.query<WebhookDeliveryRow>(
    `SELECT ${COLUMNS} FROM webhook_deliveries WHERE project_id = $1::uuid AND subscription_id = $2::uuid AND event_id = $3::uuid`,
    [asUuid(projectId), asUuid(subscriptionId), asUuid(eventId)],
  );
  return r.rows[0];
}

/**
 * Whether a delivery of this project has this id. Scoped to the project: whether another project
 * uses an id is not for a client to learn. An id taken in another project is harmless to choose:
 * the deliveries projector gives the new pair a fresh id when the record's id belongs to another pair.
 */
export async function deliveryIdTaken(q: Queryable, projectId: string, id: string): Promise<boolean>;
/** @deprecated Unscoped (probes every project): pass the project id first. */
export async function deliveryIdTaken(q: Queryable, id: string): Promise<boolean>;
export async function deliveryIdTaken(q: Queryable, projectOrId: string, id?: string): Promise<boolean> {
  const r = id === undefined
    ? await q.query('SELECT 1 FROM webhook_deliveries WHERE id = $1::uuid', [asUuid(projectOrId)])
    : await q.query('SELECT 1 FROM webhook_deliveries WHERE project_id = $1::uuid AND id = $2::uuid', [asUuid(projectOrId), asUuid(id)]);
  return (r.rowCount ?? 0) > 0;
}

export interface DeliveryFilter {
  /** Compared with `status.code` as text. */
  statusCode?: string;
  subscriptionId?: string;
  eventId?: string;
  /** Windowing (none given: every delivery, newest first). */
  newest?: string;
  oldest?: string;
  /** The id of the last delivery of the previous page: the page continues after it. */
  next?: string;
  limit?: number;
  order?: 'ascending' | 'descending';
}

/**
 * The project's deliveries, created_at (then id) descending unless ascending is asked for; none older
 * than the project's retention (`retainedFrom`; null = nothing expires).
 */
export async function queryDeliveries(q: Queryable, projectId: string, retainedFrom: Date | null, f: DeliveryFilter = {}): Promise<WebhookDeliveryRow[]> {
  const where = ['project_id = $1::uuid'];
  const values: unknown[] = [asUuid(projectId)];
  const add = (sql: (n: number) => string, v: unknown): void => { values.push(v); where.push(sql(values.length)); };
  if (retainedFrom !== null) add((n) => `created_at >= $${n}::timestamptz`, retainedFrom);
  const asc = f.order === 'ascending';
  if (f.statusCode !== undefined) add((n) => `status->>'code' = $${n}`, f.statusCode);
  if (f.subscriptionId !== undefined) add((n) => `subscription_id = $${n}::uuid`, asUuid(f.subscriptionId));
  if (f.eventId !== undefined) add((n) => `event_id = $${n}::uuid`, asUuid(f.eventId));
  if (f.newest !== undefined) add((n) => `created_at <= $${n}::timestamptz`, f.newest);
  if (f.oldest !== undefined) add((n) => `created_at >= $${n}::timestamptz`, f.oldest);
  if (f.next !== undefined) {
    // After the cursor in the page order; a cursor that names no delivery of the project ends the listing.
    add((n) => `(created_at, id) ${asc ? '>' : '<'} (SELECT created_at, id FROM webhook_deliveries WHERE project_id = $1::uuid AND id = $${n}::uuid)`, asUuid(f.next));
  }
  const dir = asc ? 'ASC' : 'DESC';
  const limit = f.limit !== undefined ? ` LIMIT ${Math.max(1, Math.floor(f.limit))}` : '';
  const r = await q.query<WebhookDeliveryRow>(
    `SELECT ${COLUMNS} FROM webhook_deliveries WHERE ${where.join(' AND ')} ORDER BY created_at ${dir}, id ${dir}${limit}`, values,
  );
  return r.rows;
}

const compact = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

export function deliveryView(row: WebhookDeliveryRow): WebhookDeliveryView {
  const status = compact(row.status) as WebhookDeliveryView['status'];
  const data = row.data ? compact(row.data) : undefined;
  if (data?.response && typeof data.response === 'object') data.response = compact(data.response as Record<string, unknown>);
  return {
    id: row.id,
    created_at: row.created_at.toISOString(),
    ...(row.updated_at ? { updated_at: row.updated_at.toISOString() } : {}),
    status: { ...status, timestamp: typeof status.timestamp === 'string' ? status.timestamp : row.created_at.toISOString() },
    ...(data ? { data: data as NonNullable<WebhookDeliveryView['data']> } : {}),
    subscription_id: row.subscription_id,
    event_id: row.event_id,
  };
}
