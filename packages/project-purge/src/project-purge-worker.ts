// Purges deleted projects' rows from ClickHouse tables, in the background, run by the service that
// owns those tables (one writer per table): projector-spans for `spans` and `trace_index`,
// projector-events for `platform_events`. The accounts read model tombstones every project it loses
// (project_tombstones, written by a trigger of projector-accounts' migration 0017 on any delete
// path); a worker reads the tombstones (it writes nothing in Postgres), deletes the projects' rows
// from its tables and records the purge in its own ClickHouse ledger (a table of the same owner).
// Reads stop at once without it (the project's API keys and memberships are gone with the
// project); this only frees the storage and removes the data for good.
//
// Several replicas may run one worker: a pass holds a transaction-scoped advisory lock named after
// the ledger, so one replica purges at a time, and a purge repeated anyway (a crash before the
// ledger row, a rebuilt table whose ledger was forgotten) deletes nothing more.
import type { Clickhouse } from '@llm/clickhouse';
import type { Logger } from '@llm/logging';
import { counter } from '@llm/metrics';
import { withTransaction, type Pool } from '@llm/postgres';

export interface ProjectPurgeOptions {
  pool: Pool;
  ch: Clickhouse;
  log: Logger;
  /** The ClickHouse tables keyed by project_id this worker empties of deleted projects. */
  tables: readonly string[];
  /** Its ClickHouse ledger (project_id String, purged_at DateTime64), created by the owner's migrations. */
  ledger: string;
  /** Metric names start with this (`span` → span_purge_projects_total). */
  metricsPrefix: string;
  /** Time between polls when nothing is left to purge. */
  intervalMs: number;
  /** How long after its deletion a project is purged: records accepted just before the delete are
   *  still on their way through Kafka and would otherwise land after the purge. */
  delayMs: number;
  /** Projects per ClickHouse mutation. */
  batchSize?: number;
}

export interface ProjectPurgeWorker {
  start(): void;
  stop(): Promise<void>;
  /** One pass: purges up to batchSize due projects; returns how many. */
  purgeDue(): Promise<number>;
}

export function createProjectPurgeWorker(o: ProjectPurgeOptions): ProjectPurgeWorker {
  const batchSize = o.batchSize ?? 100;
  const purgedProjects = counter(`${o.metricsPrefix}_purge_projects_total`, `Deleted projects whose rows were purged from ${o.tables.join(', ')}`);
  const purgedRows = counter(`${o.metricsPrefix}_purge_rows_total`, `ClickHouse rows of ${o.tables.join(', ')} purged with deleted projects`);
  const purgeFailures = counter(`${o.metricsPrefix}_purge_failures_total`, `Passes of the ${o.ledger} purge that failed (retried at the next poll)`);
  const table = (name: string): string => `${o.ch.database}.${name}`;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;

  async function chRows<T>(query: string, ids: string[]): Promise<T[]> {
    const r = await o.ch.client.query({ query, query_params: { ids }, format: 'JSONEachRow' });
    return r.json<T>();
  }

  async function purgeDue(): Promise<number> {
    return withTransaction(o.pool, async (c) => {
      const lock = await c.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS got', [`project-purge:${o.ledger}`]);
      if (!lock.rows[0]?.got) return 0;
      // A tombstone whose project id is in `projects` again is never purged: the read model is the
      // judge of what is live, whatever the tombstones say. Tombstones are few (deleted projects).
      const due = await c.query<{ project_id: string }>(
        `SELECT t.project_id::text AS project_id FROM project_tombstones t
          WHERE t.deleted_at <= now() - make_interval(secs => $1::double precision / 1000)
            AND NOT EXISTS (SELECT 1 FROM projects l WHERE l.id = t.project_id)
          ORDER BY t.deleted_at, t.project_id`,
        [o.delayMs],
      );
      if (due.rows.length === 0) return 0;
      const done = new Set((await chRows<{ project_id: string }>(
        `SELECT DISTINCT project_id FROM ${table(o.ledger)} WHERE project_id IN {ids:Array(String)}`, due.rows.map((r) => r.project_id),
      )).map((r) => r.project_id));
      const ids = due.rows.map((r) => r.project_id).filter((id) => !done.has(id)).slice(0, batchSize);
      if (ids.length === 0) return 0;
      const rows: Record<string, number> = {};
      for (const name of o.tables) {
        rows[name] = Number((await chRows<{ n: string | number }>(`SELECT count() AS n FROM ${table(name)} WHERE project_id IN {ids:Array(String)}`, ids))[0]?.n ?? 0);
        // A mutation rather than a lightweight DELETE: the span table has projections, which
        // lightweight deletes refuse. mutations_sync waits for it, so "purged" means gone.
        await o.ch.client.command({
          query: `ALTER TABLE ${table(name)} DELETE WHERE project_id IN {ids:Array(String)}`,
          query_params: { ids },
          clickhouse_settings: { mutations_sync: '1' },
        });
      }
      await o.ch.client.insert({ table: table(o.ledger), values: ids.map((project_id) => ({ project_id })), format: 'JSONEachRow' });
      const total = Object.values(rows).reduce((a, b) => a + b, 0);
      purgedProjects(ids.length);
      purgedRows(total);
      o.log.info({ projects: ids, rows }, 'purged the ClickHouse rows of deleted projects');
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
      o.log.warn({ err, ledger: o.ledger }, 'project purge pass failed; retrying at the next poll');
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
 * Forgets every recorded purge of a ledger, so that its worker purges the deleted projects again:
 * called after the owner's tables were rebuilt from a topic that still carries their records.
 */
export async function forgetPurges(ch: Clickhouse, ledger: string): Promise<void> {
  await ch.client.command({ query: `TRUNCATE TABLE IF EXISTS ${ch.database}.${ledger}` });
}
