// projector-evaluations: the only writer of the evaluation read model (evaluation_* tables) in
// Postgres, from evaluations.v1.
import { fileURLToPath } from 'node:url';
import type { Topics } from '@llm/events';
import type { KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { migratePostgres, type Pool } from '@llm/postgres';
import { waitForTables } from '@llm/pg-consumer';
import { createEvaluationsConsumer } from './consumer/evaluations-consumer.ts';
import { createRunPurge, type RunPurgeSettings } from './purge/run-purge.ts';

export const EVALUATIONS_MIGRATIONS = fileURLToPath(new URL('../migrations/', import.meta.url));
export const EVALUATIONS_CONSUMER = 'projector-evaluations.postgres';

export interface EvaluationsProjectorDeps {
  kafka: KafkaClient;
  producer: Producer;
  pool: Pool;
  topics: Topics;
  log: Logger;
  /** Consumer name (offsets in projector_offsets); another name replays the topic into an empty store. */
  consumerName?: string;
  /** Deleted projects' runs purged in the background (SPAN_PURGE_*; absent = not run here). */
  purge?: RunPurgeSettings;
}

export function createEvaluationsProjector(deps: EvaluationsProjectorDeps): { start(): Promise<void>; stop(): Promise<void> } {
  const log = deps.log.child({ component: 'projector-evaluations' });
  const c = createEvaluationsConsumer({ ...deps, log, consumerName: deps.consumerName ?? EVALUATIONS_CONSUMER });
  let stopping = false;
  const purge = deps.purge ? createRunPurge({ pool: deps.pool, log }, deps.purge) : undefined;
  return {
    async start() {
      // The consumed positions live in projector_offsets, which projector-accounts' migrations create.
      await waitForTables(deps.pool, ['projector_offsets'], log, () => stopping);
      const applied = await migratePostgres(deps.pool, EVALUATIONS_MIGRATIONS);
      if (applied.length) log.info({ applied }, 'postgres migrations applied');
      await c.start();
      purge?.start();
    },
    async stop() { stopping = true; await purge?.stop(); await c.stop(); },
  };
}
