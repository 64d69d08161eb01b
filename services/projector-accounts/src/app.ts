// projector-accounts: the only writer of the accounts read model in Postgres.
import { fileURLToPath } from 'node:url';
import type { Topics } from '@llm/events';
import type { KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { migratePostgres, type Pool } from '@llm/postgres';
import { createAccountsConsumer } from './consumer/accounts-consumer.ts';

export const ACCOUNTS_MIGRATIONS = fileURLToPath(new URL('../migrations/', import.meta.url));
export const ACCOUNTS_CONSUMER = 'projector-accounts.postgres';

export interface AccountsProjectorDeps {
  kafka: KafkaClient;
  producer: Producer;
  pool: Pool;
  topics: Topics;
  log: Logger;
  /** Consumer name (offsets in projector_offsets); another name replays the topic into an empty store. */
  consumerName?: string;
}

export function createAccountsProjector(deps: AccountsProjectorDeps): { start(): Promise<void>; stop(): Promise<void> } {
  const log = deps.log.child({ component: 'projector-accounts' });
  const c = createAccountsConsumer({ ...deps, log, consumerName: deps.consumerName ?? ACCOUNTS_CONSUMER });
  return {
    async start() {
      const applied = await migratePostgres(deps.pool, ACCOUNTS_MIGRATIONS);
      if (applied.length) log.info({ applied }, 'postgres migrations applied');
      await c.start();
    },
    stop: () => c.stop(),
  };
}
