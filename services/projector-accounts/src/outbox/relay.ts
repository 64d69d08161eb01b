// Publishes platform_outbox rows (account facts written by the projector's transactions, see
// consumer/platform-facts.ts) to platform.events.v1, and deletes each row once Kafka acknowledged it.
// Kicked after every committed batch; a periodic sweep publishes what a crash or a failed send left.
// One pass at a time in this process; a crash between the send and the delete publishes the row
// again with the same event id (at-least-once; the events read model and the webhook deliveries are
// idempotent by event id).
import { decodeEvent, type Topics } from '@llm/events';
import type { Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { counter } from '@llm/metrics';
import type { Pool } from '@llm/postgres';

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

  async function publishOnce(): Promise<number> {
    const r = await o.pool.query<{ event_id: string; project_id: string; record: Buffer }>(
      'SELECT event_id::text AS event_id, project_id::text AS project_id, record FROM platform_outbox ORDER BY created_at, event_id LIMIT $1', [batch]);
    if (r.rows.length === 0) return 0;
    // Within one transaction the rows share created_at: the facts' own times order them.
    const time = (b: Buffer): number => { const d = decodeEvent(b); return d.ok ? d.value.timeUs : 0; };
    const rows = r.rows.map((x) => ({ ...x, t: time(x.record) })).sort((a, b) => a.t - b.t);
    await o.producer.send(o.topics.platform, rows.map((x) => ({ key: x.project_id, value: x.record })));
    await o.pool.query('DELETE FROM platform_outbox WHERE event_id = ANY($1::uuid[])', [rows.map((x) => x.event_id)]);
    published(rows.length);
    return rows.length;
  }

  async function pass(): Promise<void> {
    try {
      do { again = false; } while ((await publishOnce()) === batch || again);
    } catch (err) {
      failures();
      log.warn({ err }, 'platform outbox not published yet; retrying on the next sweep');
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
