// Chooses the Kafka client implementation (KAFKA_CLIENT: kafkajs | platformatic). Both implement the
// same port; the benchmark (npm run bench:ingest) compares them.
import type { KafkaClient, KafkaSettings } from './ports.ts';
import { createKafkajsClient } from './kafkajs-client.ts';
// platformatic-client.ts is added with the client comparison (see README).

export type KafkaClientKind = 'kafkajs' | 'platformatic';

export async function createKafkaClient(settings: KafkaSettings, kind: KafkaClientKind = 'kafkajs'): Promise<KafkaClient> {
  if (kind === 'platformatic') {
    const { createPlatformaticClient } = await import('./platformatic-client.ts');
    return createPlatformaticClient(settings);
  }
  return createKafkajsClient(settings);
}
