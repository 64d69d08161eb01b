// projector-usage: the usage meters (reference accounts §2.2) as a projection of the log. Its
// consumer groups of tracing.spans.v1 (traces ingested) and platform.events.v1 (events ingested,
// traces retrieved) are the only writers of usage_daily, which quota admission and GET
// /billing/usage read. Runs inside the all-in-one process or alone (main.ts).
import { fileURLToPath } from 'node:url';
import type { Topics } from '@llm/events';
import type { KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { waitForTables } from '@llm/pg-consumer';
import { migratePostgres, type Pool } from '@llm/postgres';
import { createEventsUsageConsumer, createUsageConsumer } from './consumer/usage-consumer.ts';
import { createUsageReporter, type UsageSender } from './reports/usage-reporter.ts';

export const USAGE_MIGRATIONS = fileURLToPath(new URL('../migrations/', import.meta.url));
export const USAGE_CONSUMER = 'projector-usage.meters';
/** The platform events' meters (consumer group and offsets name). */
export const EVENTS_USAGE_CONSUMER = 'projector-usage.event-meters';
/** Tables of the accounts read model it needs: offsets, and projects (older records name no organization). */
// organization_subscriptions: the processor customers usage is reported for.
const ACCOUNTS_TABLES = ['projector_offsets', 'projects', 'organization_subscriptions'];

export interface UsageProjectorDeps {
  kafka: KafkaClient;
  producer: Producer;
  pool: Pool;
  topics: Topics;
  log: Logger;
  /** Consumer group and offsets name (default USAGE_CONSUMER; the events' meters add `-events`, default EVENTS_USAGE_CONSUMER). */
  consumerName?: string;
  /** Usage reports to the payments processor; absent or a null sender = Stripe not configured (none). */
  usageReports?: { sender: UsageSender | null; intervalMs: number };
}

export function createUsageProjector(deps: UsageProjectorDeps): { start(): Promise<void>; stop(): Promise<void>; ready(): Promise<void> } {
  const log = deps.log.child({ component: 'projector-usage' });
  const consumer = createUsageConsumer({ ...deps, log, consumerName: deps.consumerName ?? USAGE_CONSUMER });
  const events = createEventsUsageConsumer({ ...deps, log, consumerName: deps.consumerName ? `${deps.consumerName}-events` : EVENTS_USAGE_CONSUMER });
  const sender = deps.usageReports?.sender;
  const reporter = sender && deps.usageReports
    ? createUsageReporter({ pool: deps.pool, sender, log: log.child({ component: 'usage-reports' }), intervalMs: deps.usageReports.intervalMs })
    : undefined;
  let stopping = false;
  return {
    async start() {
      stopping = false;
      await waitForTables(deps.pool, ACCOUNTS_TABLES, log, () => stopping);
      const applied = await migrateUsage(deps.pool);
      if (applied.length) log.info({ applied }, 'postgres migrations applied');
      await consumer.start();
      await events.start();
      reporter?.start();
    },
    async stop() { stopping = true; await reporter?.stop(); await events.stop(); await consumer.stop(); },
    ready: async () => { await consumer.ready(); await events.ready(); },
  };
}

/** Creates usage_daily (the command and query sides may call this too, so reads work before the first record). */
export const migrateUsage = (pool: Pool): Promise<string[]> => migratePostgres(pool, USAGE_MIGRATIONS);
