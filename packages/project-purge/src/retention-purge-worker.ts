// Retention purges (issue 30): rows older than their project's retention leave storage in the
// background, each table purged by its owner (one writer per table): projector-spans' worker for
// `spans` and `trace_index`, projector-events' for `platform_events`, the webhook dispatcher's for
// `webhook_deliveries` (Postgres). Readers stop seeing those rows the moment they expire (every read
// carries the horizon); this frees the storage and removes the data for good.
//
// A pass pages through every project with its horizon (the composition root supplies them: the
// shorter of the plan's and the project's own retention, from now), and asks each target to remove
// what is older than the horizon rounded down to a step (a day by default). ClickHouse targets count first and run a mutation only when something is due, so an
// idle pass reads a primary-key range per project and rewrites nothing; Postgres targets delete in
// bounded batches. Replicas take turns through a transaction-scoped advisory lock.
import type { Clickhouse } from '@llm/clickhouse';
import type { Logger } from '@llm/logging';
import { counter } from '@llm/metrics';
import { withTransaction, type Pool } from '@llm/postgres';

/** Which horizon a target follows: spans (with the trace index) or events (the events log, deliveries). */
export type RetentionData = 'spans' | 'events';

/** A project's oldest instant still kept, per kind of data (Unix µs; absent = nothing expires). */
export interface ProjectHorizon { projectId: string; spansFromUs?: number; eventsFromUs?: number }

/** Rows of these projects older than their cutoff (Unix µs). */
export interface ProjectCutoff { projectId: string; beforeUs: number }

export interface RetentionTarget {
  /** The table, for logs and metrics. */
  name: string;
  data: RetentionData;
  /** Removes the rows older than each project's cutoff; returns how many rows went. */
  purge(cutoffs: readonly ProjectCutoff[]): Promise<number>;
}

export interface RetentionPurgeOptions {
  pool: Pool;
  log: Logger;
  targets: readonly RetentionTarget[];
  /** Every project's horizon now, a page after `afterId` (project id order). */
  horizons: (afterId: string | undefined, limit: number) => Promise<ProjectHorizon[]>;
  /** Metric names and the advisory lock start with this (`span` → span_retention_purged_rows_total). */
  metricsPrefix: string;
  /** Time between passes. */
  intervalMs: number;
  /**
   * Cutoffs move in steps of this (default a day): a row leaves storage up to one step after it
   * became invisible, and a table is rewritten once per step rather than on every pass (the horizon
   * moves continuously; a mutation rewrites every part holding a due row).
   */
  stepMs?: number;
  /** Projects per page (and per ClickHouse mutation). */
  pageSize?: number;
}

export interface RetentionPurgeWorker {
  start(): void;
  stop(): Promise<void>;
  /** One pass over every project; returns the rows removed (0 when another replica holds the turn). */
  purgeExpired(): Promise<number>;
}

export function createRetentionPurgeWorker(o: RetentionPurgeOptions): RetentionPurgeWorker {
  const pageSize = o.pageSize ?? 1000;
  const stepUs = Math.max(1, o.stepMs ?? 86_400_000) * 1000;
  const what = o.targets.map((t) => t.name).join(', ');
  const purgedRows = counter(`${o.metricsPrefix}_retention_purged_rows_total`, `Rows of ${what} removed past their project's retention`);
  const passes = counter(`${o.metricsPrefix}_retention_purge_passes_total`, `Retention purge passes over ${what}`);
  const failures = counter(`${o.metricsPrefix}_retention_purge_failures_total`, `Retention purge passes over ${what} that failed (retried at the next one)`);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;

  async function purgeExpired(): Promise<number> {
    return withTransaction(o.pool, async (c) => {
      const lock = await c.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS got', [`retention-purge:${o.metricsPrefix}`]);
      if (!lock.rows[0]?.got) return 0;
      const removed: Record<string, number> = {};
      let after: string | undefined;
      for (;;) {
        const page = await o.horizons(after, pageSize);
        for (const t of o.targets) {
          const cutoffs = page.flatMap((h) => {
            const from = t.data === 'spans' ? h.spansFromUs : h.eventsFromUs;
            return from === undefined ? [] : [{ projectId: h.projectId, beforeUs: Math.floor(from / stepUs) * stepUs }];
          });
          if (cutoffs.length > 0) removed[t.name] = (removed[t.name] ?? 0) + await t.purge(cutoffs);
        }
        if (page.length < pageSize) break;
        after = page[page.length - 1]!.projectId;
      }
      const total = Object.values(removed).reduce((a, b) => a + b, 0);
      passes();
      purgedRows(total);
      if (total > 0) o.log.info({ rows: removed }, 'purged rows past their project\'s retention');
      return total;
    });
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = purgeExpired().then(() => undefined, (err: unknown) => {
        failures();
        o.log.warn({ err, targets: what }, 'retention purge pass failed; retrying at the next pass');
      }).finally(() => { running = undefined; schedule(); });
    }, o.intervalMs);
    timer.unref();
  }

  return {
    purgeExpired,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/**
 * A ClickHouse table keyed by project_id whose rows expire by `timeColumn`: counted per pass, removed
 * by one mutation over the page's projects when any are due (a mutation rather than a lightweight
 * DELETE: the span table has projections, which lightweight deletes refuse; mutations_sync waits, so
 * "purged" means gone).
 */
export function clickhouseRetentionTarget(ch: Clickhouse, table: string, timeColumn: string, data: RetentionData): RetentionTarget {
  if (!/^[A-Za-z0-9_]+$/.test(table) || !/^[A-Za-z0-9_]+$/.test(timeColumn)) throw new Error(`bad table or column '${table}.${timeColumn}'`);
  const name = `${ch.database}.${table}`;
  const expired = `project_id IN {ids:Array(String)}
    AND ${timeColumn} < fromUnixTimestamp64Micro(transform(toString(project_id), {ids:Array(String)}, {cuts:Array(Int64)}, toInt64(0)), 'UTC')`;
  return {
    name: table,
    data,
    async purge(cutoffs) {
      const params = { ids: cutoffs.map((c) => c.projectId), cuts: cutoffs.map((c) => c.beforeUs) };
      const r = await ch.client.query({ query: `SELECT count() AS n FROM ${name} WHERE ${expired}`, query_params: params, format: 'JSONEachRow' });
      const n = Number((await r.json<{ n: string | number }>())[0]?.n ?? 0);
      if (n === 0) return 0;
      await ch.client.command({ query: `ALTER TABLE ${name} DELETE WHERE ${expired}`, query_params: params, clickhouse_settings: { mutations_sync: '1' } });
      return n;
    },
  };
}

/**
 * A Postgres table with `project_id uuid` whose rows expire by `timeColumn` (timestamptz): deleted in
 * batches of `batch` rows, so no pass holds a long lock or one huge transaction's worth of WAL.
 */
export function postgresRetentionTarget(pool: Pool, table: string, timeColumn: string, data: RetentionData, batch = 5000): RetentionTarget {
  if (!/^[A-Za-z0-9_]+$/.test(table) || !/^[A-Za-z0-9_]+$/.test(timeColumn)) throw new Error(`bad table or column '${table}.${timeColumn}'`);
  return {
    name: table,
    data,
    async purge(cutoffs) {
      const ids = cutoffs.map((c) => c.projectId);
      const before = cutoffs.map((c) => new Date(Math.floor(c.beforeUs / 1000)).toISOString());
      let total = 0;
      for (;;) {
        const r = await pool.query(
          `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
             SELECT t.ctid FROM ${table} t JOIN unnest($1::uuid[], $2::timestamptz[]) AS c(project_id, before)
               ON t.project_id = c.project_id AND t.${timeColumn} < c.before
              LIMIT $3))`,
          [ids, before, batch],
        );
        total += r.rowCount ?? 0;
        if ((r.rowCount ?? 0) < batch) return total;
      }
    },
  };
}
