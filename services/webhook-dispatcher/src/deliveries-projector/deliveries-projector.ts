// The deliveries projector: a consumer group of webhooks.deliveries.v1 writing webhook_deliveries
// (apply-record.ts), offsets in projector_offsets in the same transaction, undecodable records
// dead-lettered. Now and then it prunes webhook_delivery_records (the applied record ids) older
// than a day: they only serve writers waiting for their record and re-deliveries shortly after.
import type { Topics } from '@llm/events';
import type { KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import type { Pool } from '@llm/postgres';
import { createLogConsumer } from '@llm/pg-consumer';
import { applyDeliveryRecord } from './apply-record.ts';

export interface DeliveriesProjectorDeps {
  kafka: KafkaClient;
  producer: Producer;
  pool: Pool;
  topics: Topics;
  log: Logger;
  consumerName: string;
  /** How often applied record ids older than a day are pruned. */
  pruneEveryMs?: number;
}

export function createDeliveriesProjector(deps: DeliveriesProjectorDeps): { start(): Promise<void>; stop(): Promise<void> } {
  const log = deps.log.child({ component: 'webhook-deliveries-projector' });
  const consumer = createLogConsumer({
    ...deps, log, topic: deps.topics.deliveries, metricsPrefix: 'webhook_deliveries_projector',
    apply: (c, e) => applyDeliveryRecord(c, e),
  });
  let timer: NodeJS.Timeout | undefined;
  const prune = async (): Promise<void> => {
    try {
      const r = await deps.pool.query("DELETE FROM webhook_delivery_records WHERE applied_at < now() - interval '1 day'");
      if (r.rowCount) log.info({ pruned: r.rowCount }, 'applied delivery record ids pruned');
    } catch (err) {
      log.warn({ err }, 'pruning applied delivery record ids failed; will try again');
    }
  };
  return {
    async start() {
      await consumer.start();
      void prune();
      timer = setInterval(() => void prune(), deps.pruneEveryMs ?? 3600_000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await consumer.stop();
    },
  };
}
