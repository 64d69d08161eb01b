// Topic names and their settings, owned in one place. Names follow `<domain>.<stream>.v<major>`;
// an optional prefix isolates environments (and test runs) on a shared cluster.

export interface TopicSpec {
  name: string;
  partitions: number;
  retentionMs: number; // -1 = forever
  cleanupPolicy: 'delete' | 'compact';
  maxMessageBytes: number;
}

/** Largest record batch a topic accepts; producers keep records and batches well below it. */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

export interface TopicSettings {
  prefix: string;
  spansPartitions: number;
  accountsPartitions: number;
  spansRetentionMs: number;
  dlqRetentionMs: number;
  /** platform.events.v1 (the events log and webhook fan-out); default 3 partitions, 30 days. */
  platformPartitions?: number;
  platformRetentionMs?: number;
  /** webhooks.deliveries.v1 (delivery outcomes); default 3 partitions, 30 days. */
  deliveriesPartitions?: number;
  deliveriesRetentionMs?: number;
  /** evaluations.v1 (runs, scenarios, results, metrics keyed by run); default 6 partitions, kept forever. */
  evaluationsPartitions?: number;
}

const DAY_MS = 24 * 3600 * 1000;

export interface Topics {
  spans: string;
  accounts: string;
  /** The events log of every project: read events and account facts (keyed by project id). */
  platform: string;
  /** Webhook delivery outcomes (keyed by subscription id). */
  deliveries: string;
  /** Evaluation runs with their scenarios, results and metrics (keyed `<project_id>:<run_id>`). */
  evaluations: string;
  dlq: (topic: string) => string;
  all: TopicSpec[];
}

export function topicsFor(s: TopicSettings): Topics {
  const spans = `${s.prefix}tracing.spans.v1`;
  const accounts = `${s.prefix}accounts.events.v1`;
  const platform = `${s.prefix}platform.events.v1`;
  const deliveries = `${s.prefix}webhooks.deliveries.v1`;
  const evaluations = `${s.prefix}evaluations.v1`;
  const dlq = (t: string): string => `${t}.dlq`;
  return {
    spans,
    accounts,
    platform,
    deliveries,
    evaluations,
    dlq,
    all: [
      { name: spans, partitions: s.spansPartitions, retentionMs: s.spansRetentionMs, cleanupPolicy: 'delete', maxMessageBytes: MAX_MESSAGE_BYTES },
      { name: accounts, partitions: s.accountsPartitions, retentionMs: -1, cleanupPolicy: 'delete', maxMessageBytes: MAX_MESSAGE_BYTES },
      { name: dlq(spans), partitions: 1, retentionMs: s.dlqRetentionMs, cleanupPolicy: 'delete', maxMessageBytes: MAX_MESSAGE_BYTES },
      { name: dlq(accounts), partitions: 1, retentionMs: -1, cleanupPolicy: 'delete', maxMessageBytes: MAX_MESSAGE_BYTES },
      { name: platform, partitions: s.platformPartitions ?? 3, retentionMs: s.platformRetentionMs ?? 92 * DAY_MS, cleanupPolicy: 'delete', maxMessageBytes: MAX_MESSAGE_BYTES },
      { name: deliveries, partitions: s.deliveriesPartitions ?? 3, retentionMs: s.deliveriesRetentionMs ?? 92 * DAY_MS, cleanupPolicy: 'delete', maxMessageBytes: MAX_MESSAGE_BYTES },
      { name: dlq(platform), partitions: 1, retentionMs: s.dlqRetentionMs, cleanupPolicy: 'delete', maxMessageBytes: MAX_MESSAGE_BYTES },
      { name: dlq(deliveries), partitions: 1, retentionMs: s.dlqRetentionMs, cleanupPolicy: 'delete', maxMessageBytes: MAX_MESSAGE_BYTES },
      // The system of record of evaluations, like accounts: kept forever (a replay rebuilds every run).
      { name: evaluations, partitions: s.evaluationsPartitions ?? 6, retentionMs: -1, cleanupPolicy: 'delete', maxMessageBytes: MAX_MESSAGE_BYTES },
      { name: dlq(evaluations), partitions: 1, retentionMs: -1, cleanupPolicy: 'delete', maxMessageBytes: MAX_MESSAGE_BYTES },
    ],
  };
}

/**
 * The data topics (spans, platform events, deliveries) that keep less than `minMs` — the longest plan
 * retention (issue 30): a replay could not rebuild everything readers may still see. Forever (-1)
 * keeps enough.
 */
export function retentionShortfalls(topics: Topics, minMs: number): Array<{ topic: string; retentionMs: number }> {
  const data = new Set([topics.spans, topics.platform, topics.deliveries]);
  return topics.all.filter((t) => data.has(t.name) && t.retentionMs >= 0 && t.retentionMs < minMs).map((t) => ({ topic: t.name, retentionMs: t.retentionMs }));
}

/** Partition key of the evaluations topic: a run's events stay in order on one partition. */
export const evaluationRunKey = (projectId: string, runId: string): string => `${projectId}:${runId}`;

/** Partition key of the spans topic: a trace's events stay in order on one partition. */
export const spansKey = (projectId: string, traceId: string): string => `${projectId}:${traceId}`;

/** The span projector's consumer group: its lag on the spans topic is what ingest admission watches. */
export const SPANS_PROJECTOR_GROUP = 'projector-spans.clickhouse';
