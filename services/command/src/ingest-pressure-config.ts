// Settings of ingest admission under overload (adapters/ingest-pressure.ts), shared by the command
// service and the all-in-one, and the broker watch of the span projector's lag they drive.
import { z } from 'zod';
import { createLagMonitor, type KafkaClient, type LagMonitor } from '@llm/kafka';
import { SPANS_PROJECTOR_GROUP, type Topics } from '@llm/events';
import type { Logger } from '@llm/logging';
import type { IngestPressureOptions } from './ingest/adapters/ingest-pressure.ts';

export const ingestPressureEnv = z.object({
  /** Span projector lag (ms) the overload controller holds: above it the admitted rate is cut; 0 = never by lag. */
  INGEST_SHED_LAG_MS: z.coerce.number().int().min(0).default(2_000),
  /** Span projector lag (ms) above which every ingest request is refused. */
  INGEST_MAX_LAG_MS: z.coerce.number().int().min(1).default(5_000),
  /** How often the projector's lag is read from the broker. */
  INGEST_LAG_POLL_MS: z.coerce.number().int().min(100).default(500),
  /** Bytes of admitted requests waiting for Kafka above which ingest is refused. */
  INGEST_MAX_PENDING_BYTES: z.coerce.number().int().min(1024 * 1024).default(128 * 1024 * 1024),
});
export type IngestPressureEnv = z.infer<typeof ingestPressureEnv>;

export interface IngestPressureRuntime { options: IngestPressureOptions; monitor?: LagMonitor }

/** The admission options, with a started lag monitor when shedding by lag is on. */
export async function ingestPressureFromEnv(env: IngestPressureEnv, kafka: KafkaClient, topics: Topics, log: Logger): Promise<IngestPressureRuntime> {
  if (env.INGEST_SHED_LAG_MS > 0 && env.INGEST_MAX_LAG_MS <= env.INGEST_SHED_LAG_MS) throw new Error('INGEST_MAX_LAG_MS must be above INGEST_SHED_LAG_MS');
  const base = { lagTargetMs: env.INGEST_SHED_LAG_MS, lagHardMs: env.INGEST_MAX_LAG_MS, staleMs: Math.max(5_000, env.INGEST_LAG_POLL_MS * 10), maxPendingBytes: env.INGEST_MAX_PENDING_BYTES };
  if (env.INGEST_SHED_LAG_MS === 0) return { options: base };
  const admin = await kafka.admin();
  let warned = 0;
  const monitor = createLagMonitor({
    admin, topic: topics.spans, groupId: SPANS_PROJECTOR_GROUP, pollMs: env.INGEST_LAG_POLL_MS, idlePollMs: Math.max(env.INGEST_LAG_POLL_MS, 4_000),
    onError: (err) => { if (Date.now() - warned > 60_000) { warned = Date.now(); log.warn({ err }, 'reading the span projector lag failed; admitting ingest without it'); } },
  });
  monitor.start();
  return { options: { ...base, lag: () => monitor.snapshot(), touch: () => monitor.touch() }, monitor: { ...monitor, stop: () => { monitor.stop(); void admin.close(); } } };
}
