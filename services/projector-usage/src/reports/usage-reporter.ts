// Usage reporting to the payments processor (reference accounts §11 "A cron reports counters"):
// every BILLING_USAGE_REPORT_INTERVAL_MS, for each organization with a processor customer, the
// period's `traces_ingested` (usage_daily, the organization's anchored month) goes to the processor
// meter `traces` as the delta since the last report. Exactly once per delta: the intent (from -> to,
// identifier) is written before the processor is called and marked sent after; a pending report (a
// crash or a failed call in between) is sent again with the same identifier and value, which the
// processor answers from the first one. One replica reports at a time (a Postgres advisory lock).
import { billedOrganizations } from '@llm/account-model';
import type { PaymentsProcessor, UsageMeter } from '@llm/billing';
import { usageReportKey } from '@llm/billing';
import type { Logger } from '@llm/logging';
import type { Pool, PoolClient } from '@llm/postgres';
import { counterValue, periodRange } from '@llm/quota';

/** The counter reported, and the processor meter it goes to (§11's report map). */
export const REPORTED_COUNTERS: ReadonlyArray<{ counter: string; meter: UsageMeter }> = [{ counter: 'traces_ingested', meter: 'traces' }];
/** pg_try_advisory_lock key of the reporter ("usagerep" as an int64). */
export const USAGE_REPORT_LOCK = 0x7573616765726570n;

export type UsageSender = Pick<PaymentsProcessor, 'reportUsage'>;

export interface UsageReportOptions {
  pool: Pool;
  sender: UsageSender;
  log: Logger;
  now?: () => Date;
}

export interface UsageRunResult {
  /** false: another replica holds the lock; nothing was done. */
  ran: boolean;
  sent: number;
  failed: number;
}

interface PendingRow { organization_id: string; meter: string; period_from: string; seq: number; customer_id: string; from_value: string; to_value: string; identifier: string; created_at: Date }

async function send(c: PoolClient, o: UsageReportOptions, r: PendingRow): Promise<boolean> {
  const value = Number(r.to_value) - Number(r.from_value);
  try {
    const out = await o.sender.reportUsage({ customerId: r.customer_id, meter: r.meter as UsageMeter, value, timestamp: r.created_at, idempotencyKey: r.identifier });
    // 'duplicate': the processor holds this identifier already (so it was billed once); sent either way.
    if (out.status === 'duplicate') o.log.warn({ identifier: r.identifier }, 'usage report: the processor already had this report');
  } catch (err) {
    o.log.warn({ err, organization_id: r.organization_id, identifier: r.identifier }, 'usage report failed; it is sent again with the same identifier');
    return false;
  }
  await c.query(`UPDATE usage_reports SET status = 'sent', sent_at = $2 WHERE identifier = $1`, [r.identifier, (o.now ?? (() => new Date()))()]);
  return true;
}

/** Records the intent of reporting the delta of one period, if there is one; returns it. */
async function intend(c: PoolClient, org: { id: string; customer: string }, counter: string, meter: UsageMeter, period: { from: string; to: string }, at: Date): Promise<PendingRow | undefined> {
  const last = await c.query<{ seq: number; to_value: string }>(
    'SELECT seq, to_value::text AS to_value FROM usage_reports WHERE organization_id = $1 AND meter = $2 AND period_from = $3::date ORDER BY seq DESC LIMIT 1',
    [org.id, meter, period.from]);
  // The one reader of the meters (@llm/quota), on this transaction's client.
  const to = await counterValue(c, { organizationId: org.id, meter: counter, range: period });
  const from = Number(last.rows[0]?.to_value ?? 0);
  if (to <= from) return undefined;
  const seq = (last.rows[0]?.seq ?? 0) + 1;
  const identifier = usageReportKey(org.id, meter, `${period.from}#${seq}`);
  const r = await c.query<PendingRow>(
    `INSERT INTO usage_reports (organization_id, meter, period_from, seq, customer_id, from_value, to_value, identifier, status, created_at)
     VALUES ($1, $2, $3::date, $4, $5, $6, $7, $8, 'pending', $9)
     RETURNING organization_id::text, meter, period_from::text, seq, customer_id, from_value::text, to_value::text, identifier, created_at`,
    [org.id, meter, period.from, seq, org.customer, from, to, identifier, at]);
  return r.rows[0];
}

const previousDay = (day: string): Date => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000);

/** One run over every organization with a processor customer. */
export async function runUsageReports(o: UsageReportOptions): Promise<UsageRunResult> {
  const c = await o.pool.connect();
  const result: UsageRunResult = { ran: false, sent: 0, failed: 0 };
  try {
    const lock = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [USAGE_REPORT_LOCK.toString()]);
    if (!lock.rows[0]?.ok) return result;
    result.ran = true;
    try {
      const tally = (ok: boolean) => { if (ok) result.sent++; else result.failed++; };
      // First what an earlier run intended but did not finish: the same identifier and value again.
      const pending = await c.query<PendingRow>(
        `SELECT organization_id::text, meter, period_from::text, seq, customer_id, from_value::text, to_value::text, identifier, created_at
         FROM usage_reports WHERE status = 'pending' ORDER BY created_at, seq`);
      const stuck = new Set<string>();
      for (const r of pending.rows) {
        const ok = await send(c, o, r);
        tally(ok);
        if (!ok) stuck.add(`${r.organization_id}|${r.meter}`);
      }
      const orgs = await billedOrganizations(c);
      const now = (o.now ?? (() => new Date()))();
      for (const org of orgs) {
        for (const { counter, meter } of REPORTED_COUNTERS) {
          // A report still pending comes first: a new delta is measured from it once it is sent.
          if (stuck.has(`${org.id}|${meter}`)) continue;
          const period = periodRange(now, 'monthly', org.anchor)!;
          const previous = periodRange(previousDay(period.from), 'monthly', org.anchor)!;
          // The tail of the period that just ended, when it was being reported (never a first report of a past month).
          const reportedBefore = await c.query('SELECT 1 FROM usage_reports WHERE organization_id = $1 AND meter = $2 AND period_from = $3::date LIMIT 1', [org.id, meter, previous.from]);
          const periods = (reportedBefore.rowCount ?? 0) > 0 ? [previous, period] : [period];
          for (const p of periods) {
            const intent = await intend(c, org, counter, meter, p, now);
            if (!intent) continue;
            const ok = await send(c, o, intent);
            tally(ok);
            if (!ok) break;
          }
        }
      }
    } finally {
      await c.query('SELECT pg_advisory_unlock($1)', [USAGE_REPORT_LOCK.toString()]);
    }
    return result;
  } finally {
    c.release();
  }
}

export interface UsageReporter {
  start(): void;
  stop(): Promise<void>;
}

/** Runs runUsageReports every `intervalMs` (the first run one interval after start). */
export function createUsageReporter(o: UsageReportOptions & { intervalMs: number }): UsageReporter {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  const tick = () => {
    running = runUsageReports(o)
      .then((r) => { if (r.sent || r.failed) o.log.info(r, 'usage reports'); })
      .catch((err: unknown) => { o.log.warn({ err }, 'usage reports: run failed; next run retries'); })
      .finally(() => { running = undefined; if (!stopped) timer = setTimeout(tick, o.intervalMs); });
  };
  return {
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setTimeout(tick, o.intervalMs);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
