// The retention purges of this process (issue 30), one worker per owner of the tables it cleans:
// projector-spans' targets (spans, trace_index), projector-events' (platform_events) and the webhook
// dispatcher's deliveries (webhook_deliveries, Postgres, by creation time). Each pass computes every
// project's horizon from its organization's plan and its own retention, the same rule every reader
// applies, so what a purge removes was already invisible.
import type { AccessCatalog, PlanResolver } from '@llm/access';
import { projectHorizonsPage } from '@llm/accounts-read';
import type { Clickhouse } from '@llm/clickhouse';
import type { Logger } from '@llm/logging';
import type { Pool } from '@llm/postgres';
import { createRetentionPurgeWorker, postgresRetentionTarget, type RetentionPurgeWorker } from '@llm/project-purge';
import { eventRetentionTargets } from '@llm/service-projector-events';
import { spanRetentionTargets } from '@llm/service-projector-spans';

export function createRetentionPurges(
  deps: { pool: Pool; ch: Clickhouse; log: Logger; plans: PlanResolver; access: Pick<AccessCatalog, 'plans'> },
  settings: { intervalMs: number; stepMs: number; deliveries: boolean },
): RetentionPurgeWorker[] {
  const horizons = projectHorizonsPage(deps);
  const worker = (metricsPrefix: string, targets: Parameters<typeof createRetentionPurgeWorker>[0]['targets']): RetentionPurgeWorker =>
    createRetentionPurgeWorker({ pool: deps.pool, log: deps.log.child({ component: `${metricsPrefix}-retention-purge` }), horizons, metricsPrefix, intervalMs: settings.intervalMs, stepMs: settings.stepMs, targets });
  return [
    worker('span', spanRetentionTargets(deps.ch)),
    worker('event', eventRetentionTargets(deps.ch)),
    ...(settings.deliveries ? [worker('delivery', [postgresRetentionTarget(deps.pool, 'webhook_deliveries', 'created_at', 'events')])] : []),
  ];
}
