// Purges the spans of deleted projects from ClickHouse, in the background. The accounts read model
// tombstones every project it loses (project_tombstones, written by a trigger of migration 0017 on
// any delete path); this worker polls the tombstones not purged yet, deletes the projects' rows
// from every ClickHouse table that holds per-project data, and records the purge. Reads stop at once
// without it (the project's API keys and memberships are gone with the project); this only frees
// the storage and removes the data for good.
//
// It runs where both stores are reachable: the all-in-one process, or the query service of the split
// deployment. Several replicas may run it: a tombstone is claimed with FOR UPDATE SKIP LOCKED, and a
// purge repeated anyway (a crash before the commit, a rebuilt read model) deletes nothing more.
import type { Clickhouse } from '@llm/clickhouse';
import type { Logger } from '@llm/logging';
import { counter } from '@llm/metrics';
import { withTransaction, type Pool } from '@llm/postgres';
import { spanTables } from '@llm/span-table';

/** Every ClickHouse table keyed by project_id: the span read model and the events log. */
export const PURGED_TABLES: readonly string[] = [spanTables().spans, spanTables().traceIndex, 'platform_events'];

export interface SpanPurgeOptions {
  pool: Pool;
  ch: Clickhouse;
  log: Logger;
  /** Time between polls when nothing is left to purge. */
  intervalMs: number;
  /** How long after its deletion a project is purged: spans accepted just before the delete are
   *  still on their way through Kafka and would otherwise land after the purge. */
  delayMs: number;
  /** Projects per ClickHouse mutation. */
  batchSize?: number;
}

export interface SpanPurgeWorker {
  start(): void;
  stop(): Promise<void>;
  /** One pass: purges up to batchSize due projects; returns how many. */
  purgeDue(): Promise<number>;
}

const purgedProjects = counter('span_purge_projects_total', 'Deleted projects whose spans and events were purged from ClickHouse');
const purgedRows = counter('span_purge_rows_total', 'ClickHouse rows (spans, trace index, events) purged with deleted projects');
const purgeFailures = counter('span_purge_failures_total', 'Span purge passes that failed (retried at the next poll)');

export function createSpanPurgeWorker(o: SpanPurgeOptions): SpanPurgeWorker {
  const batchSize = o.batchSize ?? 100;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;

  async function countRows(table: string, ids: string[]): Promise<number> {
    const r = await o.ch.client.query({
      query: `SELECT count() AS n FROM ${o.ch.database}.${table} WHERE project_id IN {ids:Array(String)}`,
      query_params: { ids },
      format: 'JSONEachRow',
    });
    const rows = await r.json<{ n: string | number }>();
    return Number(rows[0]?.n ?? 0);
  }

  async function purgeDue(): Promise<number> {
    return withTransaction(o.pool, async (c) => {
      // A tombstone whose project id is in `projects` again is never purged: the read model is the
      // judge of what is live, whatever the tombstones say.
      const due = await c.query<{ project_id: string; organization_id: string }>(
        `SELECT t.project_id, t.organization_id FROM project_tombstones t
          WHERE t.deleted_at <= now() - make_interval(secs => $1::double precision / 1000)
            AND NOT EXISTS (SELECT 1 FROM project_span_purges p WHERE p.project_id = t.project_id)
            AND NOT EXISTS (SELECT 1 FROM projects l WHERE l.id = t.project_id)
          ORDER BY t.deleted_at LIMIT $2
          FOR UPDATE OF t SKIP LOCKED`,
        [o.delayMs, batchSize],
      );
      if (due.rows.length === 0) return 0;
      const ids = due.rows.map((r) => r.project_id);
      const rows: Record<string, number> = {};
      for (const table of PURGED_TABLES) {
        rows[table] = await countRows(table, ids);
        // A mutation rather than a lightweight DELETE: the span table has projections, which
        // lightweight deletes refuse. mutations_sync waits for it, so "purged" means gone.
        await o.ch.client.command({
          query: `ALTER TABLE ${o.ch.database}.${table} DELETE WHERE project_id IN {ids:Array(String)}`,
          query_params: { ids },
          clickhouse_settings: { mutations_sync: '1' },
        });
      }
      await c.query('INSERT INTO project_span_purges (project_id, purged_at) SELECT unnest($1::uuid[]), now() ON CONFLICT DO NOTHING', [ids]);
      const total = Object.values(rows).reduce((a, b) => a + b, 0);
      purgedProjects(ids.length);
      purgedRows(total);
      o.log.info({ projects: due.rows, rows }, 'purged the ClickHouse rows of deleted projects');
      return ids.length;
    });
  }

  async function loop(): Promise<void> {
    let n = 0;
    try {
      // A full batch means more may be due: go on without waiting.
      do n = await purgeDue(); while (n === batchSize && !stopped);
    } catch (err) {
      purgeFailures();
      o.log.warn({ err }, 'span purge pass failed; retrying at the next poll');
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => { running = loop().finally(() => { running = undefined; schedule(); }); }, o.intervalMs);
    timer.unref();
  }

  return {
    purgeDue,
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
 * Forgets every recorded purge, so that the worker purges the deleted projects again: called after
 * the span table was rebuilt from the spans topic, which still carries their records.
 */
export async function forgetSpanPurges(pool: Pool): Promise<void> {
  await pool.query('DELETE FROM project_span_purges');
}
