// Builds the infrastructure clients every service entry needs from parsed config, so the service
// mains and the all-in-one entry compose the same pieces instead of copying them.
import { createRegistryFraming, retentionShortfalls, topicsFor, type Topics } from '@llm/events';
import { createKafkaClient, type KafkaClient, type KafkaClientKind } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { withFraming } from './framed-kafka.ts';
import { withConsumerMetrics } from './consumer-metrics.ts';

export interface KafkaConfig {
  KAFKA_BROKERS: string;
  KAFKA_CLIENT_ID: string;
  KAFKA_TOPIC_PREFIX: string;
  KAFKA_SPANS_PARTITIONS: number;
  KAFKA_ACCOUNTS_PARTITIONS: number;
  KAFKA_SPANS_RETENTION_MS: number;
  KAFKA_DLQ_RETENTION_MS: number;
  KAFKA_PLATFORM_EVENTS_PARTITIONS?: number;
  KAFKA_PLATFORM_EVENTS_RETENTION_MS?: number;
  KAFKA_DELIVERIES_PARTITIONS?: number;
  KAFKA_DELIVERIES_RETENTION_MS?: number;
  KAFKA_EVALUATIONS_PARTITIONS?: number;
  KAFKA_CLIENT?: KafkaClientKind;
  SCHEMA_REGISTRY_URL?: string;
}

export function topicsFromConfig(c: KafkaConfig): Topics {
  return topicsFor({
    prefix: c.KAFKA_TOPIC_PREFIX,
    spansPartitions: c.KAFKA_SPANS_PARTITIONS,
    accountsPartitions: c.KAFKA_ACCOUNTS_PARTITIONS,
    spansRetentionMs: c.KAFKA_SPANS_RETENTION_MS,
    dlqRetentionMs: c.KAFKA_DLQ_RETENTION_MS,
    ...(c.KAFKA_PLATFORM_EVENTS_PARTITIONS !== undefined && { platformPartitions: c.KAFKA_PLATFORM_EVENTS_PARTITIONS }),
    ...(c.KAFKA_PLATFORM_EVENTS_RETENTION_MS !== undefined && { platformRetentionMs: c.KAFKA_PLATFORM_EVENTS_RETENTION_MS }),
    ...(c.KAFKA_DELIVERIES_PARTITIONS !== undefined && { deliveriesPartitions: c.KAFKA_DELIVERIES_PARTITIONS }),
    ...(c.KAFKA_DELIVERIES_RETENTION_MS !== undefined && { deliveriesRetentionMs: c.KAFKA_DELIVERIES_RETENTION_MS }),
    ...(c.KAFKA_EVALUATIONS_PARTITIONS !== undefined && { evaluationsPartitions: c.KAFKA_EVALUATIONS_PARTITIONS }),
  });
}

/**
 * Connects to Kafka and makes sure the project's topics exist with their partitions and retention.
 * With SCHEMA_REGISTRY_URL, event records are registered and framed through the registry.
 */
export async function connectKafka(
  c: KafkaConfig, log: Logger, opts: { /** The longest plan retention: a data topic keeping less is named at startup. */ minDataRetentionMs?: number } = {},
): Promise<{ kafka: KafkaClient; topics: Topics }> {
  const raw = await createKafkaClient({
    brokers: c.KAFKA_BROKERS.split(',').map((b) => b.trim()).filter(Boolean),
    clientId: c.KAFKA_CLIENT_ID,
    log: (level, msg, extra) => log[level](extra ?? {}, msg),
  }, c.KAFKA_CLIENT); // unset: createKafkaClient's DEFAULT_KAFKA_CLIENT
  const topics = topicsFromConfig(c);
  // Issue 30: a replay rebuilds only what the topic still holds; readers may see back as far as the
  // longest plan retention. (Existing topics keep the retention they were created with.)
  for (const s of opts.minDataRetentionMs === undefined ? [] : retentionShortfalls(topics, opts.minDataRetentionMs)) {
    log.warn({ ...s, min_retention_ms: opts.minDataRetentionMs }, 'a data topic keeps less than the longest plan retention: a replay rebuilds less than readers may see');
  }
  const admin = await raw.admin();
  try {
    await admin.ensureTopics(topics.all);
    // Topics made before the one-partition rule keep their partitions; say what that costs.
    const accountsPartitions = (await admin.endOffsets(topics.accounts)).size;
    if (accountsPartitions > 1) {
      log.warn({ topic: topics.accounts, partitions: accountsPartitions },
        'the accounts topic has more than one partition: a rebuild of the accounts read model may decide cross-aggregate rules differently (docs/decisions.md)');
    }
  } finally { await admin.close(); }
  if (!c.SCHEMA_REGISTRY_URL) return { kafka: withConsumerMetrics(raw), topics };
  const eventTopics = [topics.spans, topics.accounts];
  const framing = await createRegistryFraming(c.SCHEMA_REGISTRY_URL, { topics: eventTopics });
  log.info({ url: c.SCHEMA_REGISTRY_URL }, 'event schemas registered; records are framed');
  return { kafka: withConsumerMetrics(withFraming(raw, framing, new Set(eventTopics))), topics };
}
