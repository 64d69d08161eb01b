// Retries of topic administration. A broker that has just started, or a topic that was just
// created, answers for a few seconds with errors that clear on their own: no leader yet, "not the
// leader" from a broker whose metadata is ahead of its replica manager (KRaft publishes the leader
// in metadata before the broker serves the partition), no controller or coordinator yet, refused
// connections. Those are retried with capped backoff until a deadline; anything else fails at once.
import { backoffMs, isNetworkErrorCode, sleep as realSleep } from '@llm/errors';

/** Protocol error types (as kafkajs names them) that clear without anyone acting. */
const TRANSIENT_TYPES = new Set([
  'NOT_LEADER_FOR_PARTITION', 'LEADER_NOT_AVAILABLE', 'PREFERRED_LEADER_NOT_AVAILABLE', 'ELIGIBLE_LEADERS_NOT_AVAILABLE',
  'REPLICA_NOT_AVAILABLE', 'BROKER_NOT_AVAILABLE', 'NOT_ENOUGH_REPLICAS', 'REQUEST_TIMED_OUT', 'NETWORK_EXCEPTION',
  'NOT_CONTROLLER', 'GROUP_COORDINATOR_NOT_AVAILABLE', 'GROUP_LOAD_IN_PROGRESS', 'NOT_COORDINATOR_FOR_GROUP',
  'FENCED_LEADER_EPOCH', 'UNKNOWN_LEADER_EPOCH', 'OFFSET_NOT_AVAILABLE', 'KAFKA_STORAGE_ERROR',
]);
/** Client-side failures to reach a broker. */
const TRANSIENT_NAMES = new Set([
  'KafkaJSConnectionError', 'KafkaJSConnectionClosedError', 'KafkaJSRequestTimeoutError', 'KafkaJSBrokerNotFound',
  'KafkaJSMetadataNotLoaded', 'KafkaJSTopicMetadataNotLoaded', 'KafkaJSGroupCoordinatorNotFound', 'KafkaJSTimeout',
  'KafkaJSLockTimeout', 'KafkaJSNoBrokerAvailableError',
]);

/** What else counts as transient in a given call. */
export interface TransientContext {
  /**
   * Right after a create, a broker may not know the topic yet (another broker's metadata, or this
   * one's, lags the controller). Elsewhere a missing topic is a real answer.
   */
  unknownTopic?: boolean;
  /**
   * KRaft refuses a create with INVALID_REPLICATION_FACTOR ("only 0 broker(s) are registered")
   * until the broker has registered and been unfenced: transient while the cluster is starting.
   */
  brokersRegistering?: boolean;
  /** Errors meaning "already done" inside an aggregate (e.g. TOPIC_ALREADY_EXISTS on a create). */
  alreadyDone?: ReadonlySet<string>;
}

/** Our own "not yet" answer (partitions without a leader): transient by construction. */
export class KafkaNotReadyError extends Error {
  override readonly name = 'KafkaNotReadyError';
}

interface ErrorLike { name?: unknown; type?: unknown; code?: unknown; cause?: unknown; originalError?: unknown; errors?: unknown }

/** True when `err` (or what it wraps) is a failure that clears on its own. */
export function isTransientKafkaError(err: unknown, ctx: TransientContext = {}, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 8) return false;
  if (err instanceof KafkaNotReadyError) return true;
  const e = err as ErrorLike;
  // An aggregate (one error per topic) is transient when each part is transient or already done.
  if (Array.isArray(e.errors) && e.errors.length > 0) {
    return e.errors.every((x: unknown) => isAlreadyDone(x, ctx) || isTransientKafkaError(x, ctx, depth + 1));
  }
  if (typeof e.type === 'string') {
    if (TRANSIENT_TYPES.has(e.type)) return true;
    if (ctx.unknownTopic && e.type === 'UNKNOWN_TOPIC_OR_PARTITION') return true;
    if (ctx.brokersRegistering && e.type === 'INVALID_REPLICATION_FACTOR') return true;
  }
  if (typeof e.name === 'string' && TRANSIENT_NAMES.has(e.name)) return true;
  if (isNetworkErrorCode(e.code)) return true;
  // kafkajs wraps what its own retrier gave up on (NonRetriable / NumberOfRetriesExceeded) and keeps
  // the original as the cause: judge the original.
  return (e.cause !== undefined && e.cause !== err && isTransientKafkaError(e.cause, ctx, depth + 1))
    || (e.originalError !== undefined && isTransientKafkaError(e.originalError, ctx, depth + 1));
}

function isAlreadyDone(err: unknown, ctx: TransientContext): boolean {
  const t = err && typeof err === 'object' ? (err as ErrorLike).type : undefined;
  return typeof t === 'string' && (ctx.alreadyDone?.has(t) ?? false);
}

export interface RetryOptions {
  /** Most attempts in all (the first included). */
  attempts: number;
  /** No new attempt starts after this long since the first. */
  deadlineMs: number;
  baseMs?: number;
  capMs?: number;
  context?: TransientContext;
  /** Called before each wait; the caller logs. */
  onRetry?: (err: unknown, attempt: number, waitMs: number) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** Ordinary admin calls: a few seconds of patience, then the error surfaces. */
export const ADMIN_CALL_RETRY: Pick<RetryOptions, 'attempts' | 'deadlineMs' | 'baseMs' | 'capMs'> = { attempts: 8, deadlineMs: 20_000, baseMs: 100, capMs: 2_000 };

/** Runs `fn`, retrying transient Kafka errors with capped, jittered backoff within the bounds. */
export async function retryTransient<T>(fn: () => Promise<T>, opts: RetryOptions): Promise<T> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? realSleep;
  const deadline = now() + opts.deadlineMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const wait = backoffMs(attempt, opts.baseMs ?? 100, opts.capMs ?? 2_000);
      if (attempt + 1 >= opts.attempts || now() + wait > deadline || !isTransientKafkaError(err, opts.context)) throw err;
      opts.onRetry?.(err, attempt, wait);
      await sleep(wait);
    }
  }
}

/** One partition as metadata reports it. */
export interface PartitionState { partition: number; leader: number; errorCode: number }

export interface LeaderProbe {
  /** Current metadata of these topics (may throw while the cluster settles). */
  describe(topics: string[]): Promise<Array<{ topic: string; partitions: PartitionState[] }>>;
  /** Asks every partition's leader for its offsets: proves the leader serves, not only that metadata names one. */
  listOffsets(topic: string): Promise<void>;
}

/**
 * Resolves once every partition of every topic has a leader that answers ListOffsets; until the
 * deadline, "not yet" answers are polled again with capped backoff. At the deadline the error names
 * the partitions still without a leader.
 */
export async function waitForLeaders(topics: string[], probe: LeaderProbe, opts: Omit<RetryOptions, 'attempts' | 'context'>): Promise<void> {
  if (topics.length === 0) return;
  const t0 = (opts.now ?? Date.now)();
  await retryTransient(async () => {
    const described = await probe.describe(topics);
    const byTopic = new Map(described.map((t) => [t.topic, t.partitions]));
    const waiting: string[] = [];
    for (const topic of topics) {
      const parts = byTopic.get(topic) ?? [];
      if (parts.length === 0) waiting.push(`${topic} (no partitions yet)`);
      for (const p of parts) if (p.leader < 0 || p.errorCode !== 0) waiting.push(`${topic}[${p.partition}]`);
    }
    if (waiting.length) throw new KafkaNotReadyError(`partitions without a leader: ${waiting.join(', ')}`);
    for (const topic of topics) await probe.listOffsets(topic);
  }, { ...opts, attempts: Number.POSITIVE_INFINITY, context: { unknownTopic: true } }).catch((err: unknown) => {
    if (!isTransientKafkaError(err, { unknownTopic: true })) throw err;
    const waited = Math.round(((opts.now ?? Date.now)() - t0) / 1000);
    throw new Error(`Kafka topics not ready after ${waited} s: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  });
}
