// projector-usage: the usage meters (reference accounts §2.2) as a projection of the log. Its
// consumer group of tracing.spans.v1 is the only writer of usage_daily, which quota admission and
// GET /billing/usage read. Runs inside the all-in-one process or alone (main.ts).
import { fileURLToPath } from 'node:url';
import type { Topics } from '@llm/events';
import type { KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { waitForTables } from '@llm/pg-consumer';
import { migratePostgres, type Pool } from '@llm/postgres';
import { createUsageConsumer } from './consumer/usage-consumer.ts';
import { createUsageReporter, type UsageSender } from './reports/usage-reporter.ts';

export const USAGE_MIGRATIONS = fileURLToPath(new URL('../migrations/', import.meta.url));
export const USAGE_CONSUMER = 'projector-usage.meters';
/** Tables of the accounts read model it needs: offsets, and projects (older records name no organization). */
// organization_subscriptions: the processor customers usage is reported for.
const ACCOUNTS_TABLES = ['projector_offsets', 'projects', 'organization_subscriptions'];

export interface UsageProjectorDeps {
  kafka: KafkaClient;
  producer: Producer;
  pool: Pool;
  topics: Topics;
  log: Logger;
  /** Consumer group and offsets name (default USAGE_CONSUMER). */
  consumerName?: string;
  /** Usage reports to the payments processor; absent or a null sender = Stripe not configured (none). */
  usageReports?: { sender: UsageSender | null; intervalMs: number };
}

export function createUsageProjector(deps: UsageProjectorDeps): { start(): Promise<void>; stop(): Promise<void>; ready(): Promise<void> } {
  const log = deps.log.child({ component: 'projector-usage' });
  const consumer = createUsageConsumer({ ...deps, log, consumerName: deps.consumerName ?? USAGE_CONSUMER });
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
      reporter?.start();
    },
    async stop() { stopping = true; await reporter?.stop(); await consumer.stop(); },
    ready: () => consumer.ready(),
  };
}

/** Creates usage_daily (the command and query sides may call this too, so reads work before the first record). */
export const migrateUsage = (pool: Pool): Promise<string[]> => migratePostgres(pool, USAGE_MIGRATIONS);
