// The events purge: deleted projects' rows leave the events log (platform_events), run by
// projector-events, its only writer (@llm/project-purge; ledger project_event_purges, migration 0002).
// It needs Postgres (DATABASE_URL) for the accounts read model's project tombstones, which it reads.
import type { Clickhouse } from '@llm/clickhouse';
import type { Logger } from '@llm/logging';
import type { Pool } from '@llm/postgres';
import { createProjectPurgeWorker, type ProjectPurgeWorker, type PurgeSettings } from '@llm/project-purge';
import { EVENTS_TABLE } from '../adapters/event-table.ts';

export const EVENT_PURGE_LEDGER = 'project_event_purges';

export function createEventPurge(deps: { pool: Pool; ch: Clickhouse; log: Logger }, settings: Omit<PurgeSettings, 'enabled'>): ProjectPurgeWorker {
  return createProjectPurgeWorker({
    ...deps, log: deps.log.child({ component: 'event-purge' }), tables: [EVENTS_TABLE], ledger: EVENT_PURGE_LEDGER, metricsPrefix: 'event', ...settings,
  });
}
