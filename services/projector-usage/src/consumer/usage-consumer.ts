// projector-usage's consumer group of tracing.spans.v1: each batch's usage is summed and written
// with the consumed offsets in one Postgres transaction (@llm/pg-consumer), under the shared
// consumer policy (Postgres away → wait and retry; an undecodable record → dead-lettered).
import { decodeSpanUsage, type Topics } from '@llm/events';
import type { KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { createLogConsumer, type LogConsumer } from '@llm/pg-consumer';
import type { Pool, PoolClient } from '@llm/postgres';
import { usageSink } from './usage-sink.ts';

export interface UsageConsumerDeps {
  kafka: KafkaClient;
  producer: Producer;
  pool: Pool;
  topics: Topics;
  log: Logger;
  consumerName: string;
}

async function organizationOf(c: PoolClient, projectId: string): Promise<string | undefined> {
  const r = await c.query<{ id: string }>('SELECT organization_id::text AS id FROM projects WHERE id = $1::uuid', [projectId]);
  return r.rows[0]?.id;
}

export function createUsageConsumer(deps: UsageConsumerDeps): LogConsumer {
  return createLogConsumer({
    ...deps, topic: deps.topics.spans, metricsPrefix: 'usage_meter',
    decode: decodeSpanUsage,
    sink: () => usageSink({ organizationOf }),
  });
}
