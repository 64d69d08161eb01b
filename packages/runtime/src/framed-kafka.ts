// Puts the schema-registry framing around a Kafka client's producer for the event topics, so the
// appenders elsewhere stay unaware of it. Consumers need nothing: decodeEvent strips a frame locally.
// Dead-letter topics carry JSON and are left alone.
import type { EventFraming } from '@llm/events';
import type { KafkaClient } from '@llm/kafka';

export function withFraming(client: KafkaClient, framing: EventFraming, eventTopics: ReadonlySet<string>): KafkaClient {
  return {
    admin: () => client.admin(),
    consumer: (opts) => client.consumer(opts),
    async producer() {
      const p = await client.producer();
      return {
        async send(topic, records) {
          if (!eventTopics.has(topic)) return p.send(topic, records);
          const framed = await Promise.all(records.map(async (r) => ({ key: r.key, value: await framing.encode(topic, r.value) })));
          return p.send(topic, framed);
        },
        close: () => p.close(),
      };
    },
  };
}
