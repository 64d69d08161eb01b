// Publishes platform_outbox rows (account facts written by the projector's transactions, see
// consumer/platform-facts.ts) to platform.events.v1, and deletes each row once Kafka acknowledged it.
// Kicked after every committed batch; a periodic sweep publishes what a crash or a failed send left.
// One pass at a time in this process, and one publisher at a time across processes: a pass holds a
// Postgres advisory lock (OUTBOX_LOCK, session-level, on a dedicated connection) from its first
// read to its last delete, so two projector-accounts replicas — or a live projector and a rebuild
// against the same database — never send the same rows concurrently (duplicates) or interleave them
// (reordering); a pass that finds the lock taken does nothing, the holder publishes. A crash between
// the send and the delete publishes the row again with the same event id (at-least-once; the events
// read model and the webhook deliveries are idempotent by event id); a crashed holder's connection
// closes and its lock goes with it.
import { decodeEvent, type Topics } from '@llm/events';
import type { Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { counter } from '@llm/metrics';
import type { Pool, PoolClient } from '@llm/postgres';

/** The advisory lock key of the platform outbox publisher (migrations use 727272). */
export const OUTBOX_LOCK = 727_273;

const published = counter('projector_accounts_platform_events_published_total', 'Account facts published from the outbox to the platform events topic.');
const failures = counter('projector_accounts_outbox_publish_failures_total', 'Outbox passes that failed (Kafka or Postgres unavailable); the rows stay and are published later.');

export interface OutboxRelayOptions {
  pool: Pool;
  producer: Producer;
  topics: Topics;
  log: Logger;
  /** Sweep period (default 1 s). */
  intervalMs?: number;
  /** Rows per send (default 500). */
  batch?: number;
}

export interface OutboxRelay {
  /** A pass soon (after a batch committed facts). */
  kick(): void;
  start(): void;
  /** Stops the sweep after a last pass. */
  stop(): Promise<void>;
}

export function createOutboxRelay(o: OutboxRelayOptions): OutboxRelay {
  const log = o.log.child({ component: 'platform-outbox' });
  const batch = o.batch ?? 500;
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  async function publishOnce(c: PoolClient): Promise<number> {
    const r = await c.query<{ event_id: string; project_id: string; record: Buffer }>(
      'SELECT event_id::text AS event_id, project_id::text AS project_id, record FROM platform_outbox ORDER BY created_at, event_id LIMIT $1', [batch]);
    if (r.rows.length === 0) return 0;
    // Within one transaction the rows share created_at: the facts' own times order them.
    const time = (b: Buffer): number => { const d = decodeEvent(b); return d.ok ? d.value.timeUs : 0; };
    const rows = r.rows.map((x) => ({ ...x, t: time(x.record) })).sort((a, b) => a.t - b.t);
    await o.producer.send(o.topics.platform, rows.map((x) => ({ key: x.project_id, value: x.record })));
    await c.query('DELETE FROM platform_outbox WHERE event_id = ANY($1::uuid[])', [rows.map((x) => x.event_id)]);
    published(rows.length);
    return rows.length;
  }

  async function pass(): Promise<void> {
    let c: PoolClient | undefined;
    let locked = false;
    try {
      c = await o.pool.connect();
      locked = (await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [OUTBOX_LOCK])).rows[0]?.ok === true;
      // Another process publishes: it takes these rows, in order.
      if (!locked) return;
      do { again = false; } while ((await publishOnce(c)) === batch || again);
    } catch (err) {
      failures();
      log.warn({ err }, 'platform outbox not published yet; retrying on the next sweep');
    } finally {
      if (c) {
        const unlocked = locked ? await c.query('SELECT pg_advisory_unlock($1)', [OUTBOX_LOCK]).then(() => true, () => false) : true;
        // A connection whose unlock failed is closed: its lock must not outlive the pass.
        c.release(unlocked ? undefined : true);
      }
    }
  }

  function run(): Promise<void> {
    if (running) { again = true; return running; }
    running = pass().finally(() => { running = undefined; });
    return running;
  }

  return {
    kick() { void run(); },
    start() {
      if (timer) return;
      timer = setInterval(() => { void run(); }, o.intervalMs ?? 1000);
      timer.unref();
      void run();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      while (running) await running;
      await run();
    },
  };
}
