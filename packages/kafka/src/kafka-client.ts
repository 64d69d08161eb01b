// Chooses the Kafka client implementation (KAFKA_CLIENT: kafkajs | platformatic) and puts the linger
// batcher in front of its producer. Both implement the same port; `npm run bench:kafka` and
// `npm run bench:ingest` compare them.
import type { KafkaClient, KafkaSettings } from './ports.ts';
import { createKafkajsClient } from './kafkajs-client.ts';
import { LingerProducer } from './linger-producer.ts';
import { MAX_MESSAGE_BYTES } from '@llm/events';

export const KAFKA_CLIENT_KINDS = ['kafkajs', 'platformatic'] as const;
export type KafkaClientKind = (typeof KAFKA_CLIENT_KINDS)[number];
/**
 * The one default: the KAFKA_CLIENT config fragment (`@llm/config`) and every caller that names no
 * client use it (docs/decisions.md: why @platformatic/kafka).
 */
export const DEFAULT_KAFKA_CLIENT: KafkaClientKind = 'platformatic';

export async function createKafkaClient(settings: KafkaSettings, kind: KafkaClientKind = DEFAULT_KAFKA_CLIENT): Promise<KafkaClient> {
  let base: KafkaClient;
  if (kind === 'platformatic') {
    const { createPlatformaticClient } = await import('./platformatic-client.ts');
    base = createPlatformaticClient(settings);
  } else {
    base = createKafkajsClient(settings);
  }
  // @platformatic/kafka's idempotent producer answers OUT_OF_ORDER_SEQUENCE_NUMBER to concurrent
  // sends, so it gets one batch in flight; kafkajs keeps ordering with several.
  const maxInFlight = kind === 'platformatic' ? 1 : 4;
  return {
    ...base,
    producer: async () => new LingerProducer(await base.producer(), {
      lingerMs: settings.lingerMs ?? 5, maxBatchRecords: 5_000, maxBatchBytes: 4 * 1024 * 1024, maxInFlight,
      // The topics' max.message.bytes bounds a whole record batch; one record keeps 64 KiB of room
      // for batch and schema-registry framing.
      maxRecordBytes: MAX_MESSAGE_BYTES - 64 * 1024,
    }),
  };
}
