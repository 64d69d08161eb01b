// projector-spans: the only writer of the span read model in ClickHouse.
import { fileURLToPath } from 'node:url';
import { migrateClickhouse, type Clickhouse } from '@llm/clickhouse';
import { SPANS_PROJECTOR_GROUP, type Topics } from '@llm/events';
import type { KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { spanTables } from '@llm/span-table';
import { createSpansConsumer, type SpansConsumer } from './consumer/spans-consumer.ts';

export const SPANS_MIGRATIONS = fileURLToPath(new URL('../migrations/', import.meta.url));
export const SPANS_GROUP = SPANS_PROJECTOR_GROUP;
/** The live table set (replay builds a suffixed one beside it). */
export const SPAN_TABLES = spanTables();

export interface SpansProjectorDeps {
  kafka: KafkaClient;
  producer: Producer;
  ch: Clickhouse;
  topics: Topics;
  log: Logger;
  /** Bounds of the trace cache (consumer/trace-cache.ts). */
  cacheSpans?: number;
  cacheBytes?: number;
}

export function createSpansProjector(deps: SpansProjectorDeps): { start(): Promise<void>; stop(): Promise<void>; consumer: SpansConsumer } {
  const log = deps.log.child({ component: 'projector-spans' });
  const consumer = createSpansConsumer({ ...deps, log, groupId: SPANS_GROUP, tables: SPAN_TABLES });
  return {
    consumer,
    async start() {
      const applied = await migrateClickhouse(deps.ch, SPANS_MIGRATIONS);
      if (applied.length) log.info({ applied }, 'clickhouse migrations applied');
      await consumer.start();
    },
    stop: () => consumer.stop(),
  };
}

/** Creates the span tables (the query side calls this too, so reads work before the first span). */
export const migrateSpans = (ch: Clickhouse): Promise<string[]> => migrateClickhouse(ch, SPANS_MIGRATIONS);
