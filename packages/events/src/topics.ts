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
}

export interface Topics {
  spans: string;
  accounts: string;
  dlq: (topic: string) => string;
  all: TopicSpec[];
}

export function topicsFor(s: TopicSettings): Topics {
  const spans = `${s.prefix}tracing.spans.v1`;
  const accounts = `${s.prefix}accounts.events.v1`;
  const dlq = (t: string): string => `${t}.dlq`;
  return {
    spans,
    accounts,
    dlq,
    all: [
      { name: spans, partitions: s.spansPartitions, retentionMs: s.spansRetentionMs, cleanupPolicy: 'delete', maxMessageBytes: MAX_MESSAGE_BYTES },
      { name: accounts, partitions: s.accountsPartitions, retentionMs: -1, cleanupPolicy: 'delete', maxMessageBytes: MAX_MESSAGE_BYTES },
      { name: dlq(spans), partitions: 1, retentionMs: s.dlqRetentionMs, cleanupPolicy: 'delete', maxMessageBytes: MAX_MESSAGE_BYTES },
      { name: dlq(accounts), partitions: 1, retentionMs: -1, cleanupPolicy: 'delete', maxMessageBytes: MAX_MESSAGE_BYTES },
    ],
  };
}

/** Partition key of the spans topic: a trace's events stay in order on one partition. */
export const spansKey = (projectId: string, traceId: string): string => `${projectId}:${traceId}`;
