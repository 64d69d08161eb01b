// projector-events: the only writer of the events read model (ClickHouse table platform_events),
// a consumer group of platform.events.v1.
import { fileURLToPath } from 'node:url';
import { migrateClickhouse, type Clickhouse } from '@llm/clickhouse';
import type { Topics } from '@llm/events';
import type { KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { createEventsConsumer, type EventsConsumer } from './consumer/events-consumer.ts';
import { applyRetention } from './adapters/event-table.ts';

export const EVENTS_MIGRATIONS = fileURLToPath(new URL('../migrations/', import.meta.url));
export const EVENTS_GROUP = 'projector-events.clickhouse';

export interface EventsProjectorDeps {
  kafka: KafkaClient;
  producer: Producer;
  ch: Clickhouse;
  topics: Topics;
  log: Logger;
  /** Consumer group (default EVENTS_GROUP); another group with another database rebuilds from the topic. */
  groupId?: string;
}

export function createEventsProjector(deps: EventsProjectorDeps): { start(): Promise<void>; stop(): Promise<void>; consumer: EventsConsumer } {
  const log = deps.log.child({ component: 'projector-events' });
  const consumer = createEventsConsumer({ ...deps, log, groupId: deps.groupId ?? EVENTS_GROUP });
  return {
    consumer,
    async start() {
      const applied = await migrateEvents(deps.ch);
      if (applied.length) log.info({ applied }, 'clickhouse migrations applied');
      await applyRetention(deps.ch, deps.topics.all.find((t) => t.name === deps.topics.platform)?.retentionMs);
      await consumer.start();
    },
    stop: () => consumer.stop(),
  };
}

/** Creates the events table (the query side may call this too, so reads work before the first event). */
export const migrateEvents = (ch: Clickhouse): Promise<string[]> => migrateClickhouse(ch, EVENTS_MIGRATIONS);
