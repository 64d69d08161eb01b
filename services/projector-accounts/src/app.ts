// projector-accounts: the only writer of the accounts read model in Postgres.
import { fileURLToPath } from 'node:url';
import type { Topics } from '@llm/events';
import type { KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { migratePostgres, type Pool } from '@llm/postgres';
import { createAccountsConsumer } from './consumer/accounts-consumer.ts';
import { createOutboxRelay } from './outbox/relay.ts';

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
  /** Emit accepted facts as platform events (outbox → platform.events.v1). Default: only under the
   * live consumer name, so a replay into another store never emits them twice; `false`
   * (ACCOUNTS_PLATFORM_FACTS=false) also silences the live name, for a rebuild into an empty database. */
  platformFacts?: boolean;
}

export function createAccountsProjector(deps: AccountsProjectorDeps): { start(): Promise<void>; stop(): Promise<void> } {
  const log = deps.log.child({ component: 'projector-accounts' });
  const consumerName = deps.consumerName ?? ACCOUNTS_CONSUMER;
  const platformFacts = deps.platformFacts ?? consumerName === ACCOUNTS_CONSUMER;
  const relay = platformFacts ? createOutboxRelay({ pool: deps.pool, producer: deps.producer, topics: deps.topics, log }) : undefined;
  const c = createAccountsConsumer({ ...deps, log, consumerName, platformFacts, ...(relay ? { onFactsCommitted: () => relay.kick() } : {}) });
  return {
    async start() {
      const applied = await migratePostgres(deps.pool, ACCOUNTS_MIGRATIONS);
      if (applied.length) log.info({ applied }, 'postgres migrations applied');
      await c.start();
      relay?.start();
    },
    async stop() {
      await c.stop();
      await relay?.stop();
    },
  };
}
