// The Kafka port: the only Kafka surface the services see. Implementations live beside it;
// `kafka-client.ts` picks one. No other module imports a Kafka client library.
import type { TopicSpec } from '@llm/events';

export interface KafkaSettings {
  brokers: string[];
  clientId: string;
  /** How long the producer waits to gather records from concurrent callers into one send. */
  lingerMs?: number;
  /**
   * How long topic administration waits for a starting cluster (connect, create, every partition's
   * leader serving) before it gives up; default 60 s.
   */
  topicsReadyTimeoutMs?: number;
  /** Log sink for client warnings/errors. */
  log?: (level: 'warn' | 'error' | 'info', msg: string, extra?: Record<string, unknown>) => void;
}

export interface OutgoingRecord {
  key: string;
  value: Buffer;
}

export interface Producer {
  /** Resolves only after every record was acknowledged by all in-sync replicas (acks=all, idempotent). */
  send(topic: string, records: OutgoingRecord[]): Promise<void>;
  close(): Promise<void>;
}

export interface IncomingRecord {
  topic: string;
  partition: number;
  offset: bigint;
  key: string | null;
  value: Buffer | null;
  timestampMs: number;
}

export interface IncomingBatch {
  topic: string;
  partition: number;
  records: IncomingRecord[];
}

export interface ConsumerOptions {
  groupId: string;
  topics: string[];
  /** Where a group with no committed offset starts. */
  fromBeginning: boolean;
  /** Partitions processed concurrently. */
  concurrency?: number;
  /** Explicit start positions (e.g. stored in the read model's own transaction); overrides commits. */
  startOffsets?: (topic: string, partition: number) => Promise<bigint | undefined>;
}

export interface Consumer {
  /**
   * Calls `handle` with ordered batches per partition. The batch's offsets are committed only after
   * `handle` resolved; a rejection stops the consumer (nothing is skipped).
   */
  start(handle: (batch: IncomingBatch) => Promise<void>): Promise<void>;
  stop(): Promise<void>;
  /** Resolves when the consumer has joined its group and received an assignment. */
  ready(): Promise<void>;
}

/** Topic administration. Transient broker errors are retried a bounded number of times. */
export interface Admin {
  /**
   * Creates the missing topics, then resolves only once every partition of every listed topic has
   * a leader that answers (so the first ListOffsets, produce or fetch finds it).
   */
  ensureTopics(specs: TopicSpec[]): Promise<void>;
  /** High watermark per partition (the offset the next record will get). */
  endOffsets(topic: string): Promise<Map<number, bigint>>;
  /**
   * Per partition, the offset of the first record stamped at or after `timestampMs` (-1 when none is:
   * every record is older).
   */
  offsetsAfter(topic: string, timestampMs: number): Promise<Map<number, bigint>>;
  /** Log-start offset per partition (older records were removed by retention). */
  startOffsets(topic: string): Promise<Map<number, bigint>>;
  committedOffsets(groupId: string, topic: string): Promise<Map<number, bigint>>;
  /** Stores a group's committed offsets (the group must have no active members), e.g. a CLI's progress. */
  setCommittedOffsets(groupId: string, topic: string, offsets: Map<number, bigint>): Promise<void>;
  deleteGroup(groupId: string): Promise<void>;
  /** Every topic's name, the cluster's internal ones (`__consumer_offsets`) included. */
  listTopics(): Promise<string[]>;
  /** Every consumer group the cluster knows (empty and dead groups with committed offsets included). */
  listGroups(): Promise<string[]>;
  /** A group's committed offsets on every topic it committed to: topic → partition → next offset. */
  groupOffsets(groupId: string): Promise<Map<string, Map<number, bigint>>>;
  close(): Promise<void>;
}

export interface KafkaClient {
  producer(): Promise<Producer>;
  consumer(opts: ConsumerOptions): Consumer;
  admin(): Promise<Admin>;
}
