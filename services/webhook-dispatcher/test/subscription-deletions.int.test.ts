// A subscription's deletion (accounts topic) and a record of one of its deliveries (deliveries topic)
// are applied by two of the dispatcher's consumers in two concurrent transactions, in whatever order
// they happen to run — live, and above all in a rebuild, where both start at offset 0 at once. On the
// real Postgres, each order of the two uncommitted transactions is forced here: whichever commits
// first, the deleted subscription keeps no delivery (without the lock of deletion-lock.ts, each read
// only the other's committed state and the delivery survived — the replay test's extra row).
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { decodeEvent, encodeEvent, uuidv7, type DecodedEvent } from '@llm/events';
import { migratePostgres, type Pool, type PoolClient } from '@llm/postgres';
import { eventually } from '@llm/testing';
import { openFreshDatabase, type FreshDatabase } from '@llm/testing/fresh-database';
import { applyDeliveryRecord } from '../src/deliveries-projector/apply-record.ts';
import { applyAccountsRecord } from '../src/subscription-deletions/deletions-consumer.ts';

let db: FreshDatabase;
let pool: Pool;
beforeAll(async () => {
  db = await openFreshDatabase(inject('databaseUrl'), [], { prefix: 'webhook_deletions', max: 6 });
  pool = db.pool;
  // The two tables of projector-accounts' 0011-webhooks.sql the dispatcher writes (their shape here).
  await pool.query(`CREATE TABLE webhook_deliveries (
    id uuid PRIMARY KEY, project_id uuid NOT NULL, subscription_id uuid NOT NULL, event_id uuid NOT NULL, status jsonb NOT NULL, data jsonb,
    attempts int NOT NULL DEFAULT 0, final boolean NOT NULL DEFAULT true, created_at timestamptz NOT NULL, updated_at timestamptz,
    last_record_id uuid NOT NULL, UNIQUE (project_id, subscription_id, event_id))`);
  await pool.query('CREATE TABLE webhook_delivery_records (record_id uuid PRIMARY KEY, delivery_id uuid NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
  await migratePostgres(pool, path.resolve(import.meta.dirname, '../migrations'));
});
afterAll(async () => { await db?.close(); });

const decoded = (value: Buffer): DecodedEvent => {
  const r = decodeEvent(value);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};
const deliveryRecord = (projectId: string, subscriptionId: string): DecodedEvent => decoded(encodeEvent('webhooks.delivery.recorded', {
  delivery_id: randomUUID(), project_id: projectId, subscription_id: subscriptionId, event_id: uuidv7(),
  status_json: JSON.stringify({ code: '200', message: 'success', timestamp: new Date().toISOString() }), data_json: '', attempts: 1, final: true,
}, { eventId: randomUUID(), projectId }));
const deletion = (projectId: string, subscriptionId: string): DecodedEvent => decoded(encodeEvent('accounts.webhook.deleted', {
  subscription_id: subscriptionId, project_id: projectId,
}, { eventId: randomUUID(), projectId }));

async function begin(): Promise<{ c: PoolClient; pid: number }> {
  const c = await pool.connect();
  await c.query('BEGIN');
  const pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  return { c, pid };
}

/** Resolves once `work` has finished, or once the backend `pid` waits on a lock (then `work` goes on in the background). */
async function finishedOrWaiting(work: Promise<unknown>, pid: number): Promise<'finished' | 'waiting'> {
  let finished = false;
  void work.then(() => { finished = true; }, () => { finished = true; });
  const waiting = async (): Promise<boolean> => (await pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'", [pid])).rows[0]!.n === 1;
  await eventually(async () => finished || await waiting(), (v) => v, 10_000);
  return finished ? 'finished' : 'waiting';
}

const deliveriesOf = async (subscriptionId: string): Promise<number> =>
  (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = $1', [subscriptionId])).rows[0]!.n;
const tombstones = async (subscriptionId: string): Promise<number> =>
  (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deleted_subscriptions WHERE subscription_id = $1', [subscriptionId])).rows[0]!.n;

describe('a subscription deletion and a delivery record applied concurrently', () => {
  it('given a delivery record applied but not committed, when the deletion is applied meanwhile and the record commits first, then the deletion still removes the delivery', async () => {
    const project = randomUUID();
    const subscription = uuidv7();
    const rec = await begin();
    const del = await begin();
    try {
      expect(await applyDeliveryRecord(rec.c, deliveryRecord(project, subscription))).toEqual({ ok: true });
      const deleting = applyAccountsRecord(del.c, deletion(project, subscription)).then(async (v) => { await del.c.query('COMMIT'); return v; });
      // The deletion has read and written what it could, or waits: only then does the record commit.
      await finishedOrWaiting(deleting, del.pid);
      await rec.c.query('COMMIT');
      expect(await deleting).toEqual({ ok: true });
    } finally {
      rec.c.release();
      del.c.release();
    }
    expect(await deliveriesOf(subscription)).toBe(0);
    expect(await tombstones(subscription)).toBe(1);
  });

  it('given a deletion applied but not committed, when a record of that subscription is applied meanwhile and the deletion commits first, then the record brings no delivery back', async () => {
    const project = randomUUID();
    const subscription = uuidv7();
    const del = await begin();
    const rec = await begin();
    let recordId = '';
    try {
      expect(await applyAccountsRecord(del.c, deletion(project, subscription))).toEqual({ ok: true });
      const record = deliveryRecord(project, subscription);
      recordId = record.eventId;
      const recording = applyDeliveryRecord(rec.c, record).then(async (v) => { await rec.c.query('COMMIT'); return v; });
      // The record has read and written what it could, or waits: only then does the deletion commit.
      await finishedOrWaiting(recording, rec.pid);
      await del.c.query('COMMIT');
      expect(await recording).toEqual({ ok: true });
    } finally {
      rec.c.release();
      del.c.release();
    }
    expect(await deliveriesOf(subscription)).toBe(0);
    expect(await tombstones(subscription)).toBe(1);
    // The record counts as applied all the same (a writer waiting for it is released).
    expect((await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_delivery_records WHERE record_id = $1', [recordId])).rows[0]!.n).toBe(1);
  });

  it('given a record applied but not committed, when a record of another subscription is applied meanwhile, then it does not wait (records share the lock)', async () => {
    const project = randomUUID();
    const a = await begin();
    const b = await begin();
    try {
      expect(await applyDeliveryRecord(a.c, deliveryRecord(project, uuidv7()))).toEqual({ ok: true });
      const other = uuidv7();
      expect(await finishedOrWaiting(applyDeliveryRecord(b.c, deliveryRecord(project, other)), b.pid)).toBe('finished');
      await b.c.query('COMMIT');
      await a.c.query('COMMIT');
      expect(await deliveriesOf(other)).toBe(1);
    } finally {
      a.c.release();
      b.c.release();
    }
  });
});
