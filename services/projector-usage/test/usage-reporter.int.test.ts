// Usage reports to the payments processor on the real Postgres: the delta since the last report, the
// intent recorded before the call, an interrupted report sent again with the same identifier and
// value (so the processor, which answers a known identifier from the first report, bills once), and
// one replica at a time (advisory lock).
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { openFreshDatabase, type FreshDatabase } from '@llm/testing/fresh-database';
import { createLogger } from '@llm/logging';
import { migratePostgres, type Pool } from '@llm/postgres';
import { runUsageReports, USAGE_REPORT_LOCK, type UsageSender } from '../src/reports/usage-reporter.ts';

let db: FreshDatabase;
let pool: Pool;
beforeAll(async () => {
  db = await openFreshDatabase(inject('databaseUrl'), [], { prefix: 'usage_reports' });
  pool = db.pool;
  // The accounts projection's table the reporter reads (owned by projector-accounts; its shape here).
  await pool.query(`CREATE TABLE organization_subscriptions (organization_id uuid PRIMARY KEY, plan text NOT NULL, anchor smallint NOT NULL, customer_id text)`);
  await migratePostgres(pool, path.resolve(import.meta.dirname, '../migrations'));
});
afterAll(async () => { await db?.close(); });

const log = createLogger({ name: 'test', level: 'silent' });
const NOW = new Date(Date.UTC(2026, 10, 20, 12));

interface Sent { customerId: string; value: number; idempotencyKey: string }
/** A processor that records reports; `crashAfterSend` makes the next call fail after the processor got it. */
function fakeProcessor() {
  const sent: Sent[] = [];
  const state = { crashAfterSend: false, down: false };
  const sender: UsageSender = {
    async reportUsage({ customerId, value, idempotencyKey }) {
      if (state.down) throw new Error('processor unavailable');
      sent.push({ customerId, value, idempotencyKey });
      if (state.crashAfterSend) { state.crashAfterSend = false; throw new Error('connection reset after the processor answered'); }
      return { status: 'reported' as const };
    },
  };
  return { sender, sent, state };
}

async function organization(anchor = 1): Promise<{ id: string; customer: string }> {
  const id = randomUUID();
  const customer = `cus_${randomBytes(4).toString('hex')}`;
  await pool.query(`INSERT INTO organization_subscriptions (organization_id, plan, anchor, customer_id) VALUES ($1, 'cloud_v0_pro', $2, $3)`, [id, anchor, customer]);
  return { id, customer };
}
const ingest = (org: string, day: string, value: number) => pool.query(
  `INSERT INTO usage_daily (organization_id, project_id, meter, day, value) VALUES ($1, $2, 'traces_ingested', $3, $4)`, [org, randomUUID(), day, value]);
/** What one processor would bill: each identifier once, at the value it was first sent with. */
const billed = (sent: Sent[], customer: string): number => {
  const seen = new Map<string, number>();
  for (const s of sent) if (s.customerId === customer && !seen.has(s.idempotencyKey)) seen.set(s.idempotencyKey, s.value);
  return [...seen.values()].reduce((a, b) => a + b, 0);
};

describe('usage reports', () => {
  it('given usage in the current period, when reports run twice, then the delta is reported once and only new usage after that', async () => {
    const p = fakeProcessor();
    const org = await organization(15);
    await ingest(org.id, '2026-11-14', 1000); // previous period (anchor 15): never a first report of a past month
    await ingest(org.id, '2026-11-15', 100);
    await ingest(org.id, '2026-11-20', 20);
    await runUsageReports({ pool, sender: p.sender, log, now: () => NOW });
    await runUsageReports({ pool, sender: p.sender, log, now: () => NOW });
    const mine = p.sent.filter((s) => s.customerId === org.customer);
    expect(mine).toEqual([{ customerId: org.customer, value: 120, idempotencyKey: `usage:traces:${org.id}:2026-11-15#1` }]);

    await ingest(org.id, '2026-11-20', 30);
    await runUsageReports({ pool, sender: p.sender, log, now: () => NOW });
    expect(p.sent.filter((s) => s.customerId === org.customer).map((s) => [s.value, s.idempotencyKey])).toEqual([
      [120, `usage:traces:${org.id}:2026-11-15#1`], [30, `usage:traces:${org.id}:2026-11-15#2`],
    ]);
    const rows = await pool.query(`SELECT from_value::int AS f, to_value::int AS t, status FROM usage_reports WHERE organization_id = $1 ORDER BY seq`, [org.id]);
    expect(rows.rows).toEqual([{ f: 0, t: 120, status: 'sent' }, { f: 120, t: 150, status: 'sent' }]);
  });

  it('given a report interrupted after the processor got it, when reports run again, then the same identifier and value are sent and nothing is billed twice', async () => {
    const p = fakeProcessor();
    const org = await organization(1);
    await ingest(org.id, '2026-11-02', 50);
    p.state.crashAfterSend = true;
    const first = await runUsageReports({ pool, sender: p.sender, log, now: () => NOW });
    expect(first.failed).toBeGreaterThanOrEqual(1);
    const pending = await pool.query(`SELECT status, identifier FROM usage_reports WHERE organization_id = $1`, [org.id]);
    expect(pending.rows).toEqual([{ status: 'pending', identifier: `usage:traces:${org.id}:2026-11-01#1` }]);

    // Usage grew meanwhile: the pending report still goes out as it was, the growth as a new report.
    await ingest(org.id, '2026-11-03', 7);
    await runUsageReports({ pool, sender: p.sender, log, now: () => NOW });
    const mine = p.sent.filter((s) => s.customerId === org.customer).map((s) => [s.value, s.idempotencyKey]);
    expect(mine).toEqual([
      [50, `usage:traces:${org.id}:2026-11-01#1`], [50, `usage:traces:${org.id}:2026-11-01#1`], [7, `usage:traces:${org.id}:2026-11-01#2`],
    ]);
    expect(billed(p.sent, org.customer)).toBe(57);

    // A processor that is down: the intent stays pending and nothing new is measured past it.
    await ingest(org.id, '2026-11-04', 3);
    p.state.down = true;
    await runUsageReports({ pool, sender: p.sender, log, now: () => NOW });
    p.state.down = false;
    await ingest(org.id, '2026-11-05', 4);
    await runUsageReports({ pool, sender: p.sender, log, now: () => NOW });
    expect(billed(p.sent, org.customer)).toBe(64);
    const statuses = await pool.query(`SELECT count(*)::int AS n FROM usage_reports WHERE organization_id = $1 AND status = 'pending'`, [org.id]);
    expect(statuses.rows[0].n).toBe(0);
  });

  it('given another replica holds the lock, when reports run, then nothing is reported', async () => {
    const p = fakeProcessor();
    const org = await organization(1);
    await ingest(org.id, '2026-11-10', 5);
    const other = await pool.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [USAGE_REPORT_LOCK.toString()]);
      const r = await runUsageReports({ pool, sender: p.sender, log, now: () => NOW });
      expect(r).toEqual({ ran: false, sent: 0, failed: 0 });
      expect(p.sent).toEqual([]);
    } finally {
      await other.query('SELECT pg_advisory_unlock($1)', [USAGE_REPORT_LOCK.toString()]);
      other.release();
    }
    const r = await runUsageReports({ pool, sender: p.sender, log, now: () => NOW });
    expect(r.ran).toBe(true);
    expect(billed(p.sent, org.customer)).toBe(5);
  });
});
