// The span purge: deleted projects' rows leave the span read model (spans, trace_index, trace_roots), run by
// projector-spans, their only writer (@llm/project-purge; ledger project_span_purges, migration 0005).
// It needs Postgres (DATABASE_URL) for the accounts read model's project tombstones, which it reads.
import type { Clickhouse } from '@llm/clickhouse';
import type { Logger } from '@llm/logging';
import type { Pool } from '@llm/postgres';
import { createProjectPurgeWorker, forgetPurges, type ProjectPurgeWorker, type PurgeSettings } from '@llm/project-purge';
import { spanTables } from '@llm/span-table';

export const SPAN_PURGE_LEDGER = 'project_span_purges';
/** The span read model's tables keyed by project_id. */
export const PURGED_SPAN_TABLES: readonly string[] = [spanTables().spans, spanTables().traceIndex, spanTables().roots];

export function createSpanPurge(deps: { pool: Pool; ch: Clickhouse; log: Logger }, settings: Omit<PurgeSettings, 'enabled'>): ProjectPurgeWorker {
  return createProjectPurgeWorker({
    ...deps, log: deps.log.child({ component: 'span-purge' }), tables: PURGED_SPAN_TABLES, ledger: SPAN_PURGE_LEDGER, metricsPrefix: 'span', ...settings,
  });
}

/** After a replay swapped rebuilt span tables in: they hold deleted projects' rows again, purge anew. */
export const forgetSpanPurges = (ch: Clickhouse): Promise<void> => forgetPurges(ch, SPAN_PURGE_LEDGER);
