// projector-usage's consumer groups of tracing.spans.v1 (traces ingested) and platform.events.v1
// (events ingested, traces retrieved): each batch's usage is summed and written with the consumed
// offsets in one Postgres transaction (@llm/pg-consumer), under the shared consumer policy
// (Postgres away → wait and retry).
import { organizationOfProject } from '@llm/account-model';
import { decodeEvent, decodeSpanUsage, type SpanUsage, type Topics } from '@llm/events';
import type { Result } from '@llm/errors';
import { counter } from '@llm/metrics';
import type { KafkaClient, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { createLogConsumer, type LogConsumer } from '@llm/pg-consumer';
import type { Pool, PoolClient } from '@llm/postgres';
import { usageSink } from './usage-sink.ts';
import { eventsUsageSink } from './events-usage-sink.ts';
import { platformUsage, type PlatformUsage } from '../domain/platform-usage.ts';

export interface UsageConsumerDeps {
  kafka: KafkaClient;
  producer: Producer;
  pool: Pool;
  topics: Topics;
  log: Logger;
  consumerName: string;
}

const organizationOf = (c: PoolClient, projectId: string): Promise<string | undefined> => organizationOfProject(c, projectId);

const undecodable = counter('usage_meter_records_unreadable_total', 'Spans-topic records the usage meters could not read (counted as no usage; projector-spans dead-letters them).');

/**
 * A record the meters cannot read brings no usage: it is not dead-lettered here, because
 * projector-spans, reading the same record, sets it aside in the topic's DLQ with its reason (two
 * consumers would put it there twice).
 */
function decodeOrNothing(log: Logger) {
  return (value: Buffer): Result<SpanUsage> => {
    const r = decodeSpanUsage(value);
    if (r.ok) return r;
    undecodable();
    log.warn({ error: r.error }, 'spans record unreadable by the usage meters: no usage counted');
    return { ok: true, value: { type: '', projectId: '', organizationId: '', actorId: '', timeUs: 0, traceId: '', spans: 0 } };
  };
}

export function createUsageConsumer(deps: UsageConsumerDeps): LogConsumer {
  return createLogConsumer({
    ...deps, topic: deps.topics.spans, metricsPrefix: 'usage_meter',
    decode: decodeOrNothing(deps.log),
    sink: () => usageSink({ organizationOf }),
  });
}

const eventsUndecodable = counter('usage_meter_events_unreadable_total', 'Platform-events records the usage meters could not read (counted as no usage; projector-events dead-letters them).');

/** An undecodable platform record is no usage, and not dead-lettered here (projector-events does). */
function decodePlatformOrNothing(log: Logger) {
  return (value: Buffer): Result<PlatformUsage | undefined> => {
    const r = decodeEvent(value);
    if (r.ok) return { ok: true, value: platformUsage(r.value) };
    eventsUndecodable();
    log.warn({ error: r.error }, 'platform events record unreadable by the usage meters: no usage counted');
    return { ok: true, value: undefined };
  };
}

export function createEventsUsageConsumer(deps: UsageConsumerDeps): LogConsumer {
  return createLogConsumer({
    ...deps, topic: deps.topics.platform, metricsPrefix: 'usage_meter_events',
    decode: decodePlatformOrNothing(deps.log),
    sink: () => eventsUsageSink({ organizationOf }),
  });
}
