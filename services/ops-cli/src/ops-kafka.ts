// One Kafka session of a command: the client the services use (same port, same implementation
// choice), without the topic creation service start-up does (an inspection must not create
// anything), and with the first connection time-boxed: the admin client retries a starting cluster
// for a minute, which is right for a service and wrong for an operator waiting at a prompt.
import type { Topics } from '@llm/events';
import { createKafkaClient, type Admin, type KafkaClient } from '@llm/kafka';
import { topicsFromConfig } from '@llm/runtime';
import type { OpsConfig } from './ops-config.ts';
import { OpsFailure } from './ops-errors.ts';

export interface OpsKafka {
  kafka: KafkaClient;
  admin: Admin;
  topics: Topics;
  /** The environment's topic prefix (KAFKA_TOPIC_PREFIX): what the listings are limited to. */
  prefix: string;
  close(): Promise<void>;
}

const LOG_ORDER = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

export async function connectOps(c: OpsConfig, stderr: (line: string) => void): Promise<OpsKafka> {
  const brokers = c.KAFKA_BROKERS.split(',').map((b) => b.trim()).filter(Boolean);
  const threshold = LOG_ORDER.indexOf(c.LOG_LEVEL);
  const kafka = await createKafkaClient({
    brokers,
    clientId: 'ops-cli',
    topicsReadyTimeoutMs: c.OPS_CONNECT_TIMEOUT_MS,
    // Client logs stay off stdout (it carries the --json document) and off by default.
    log: (level, msg) => { if (LOG_ORDER.indexOf(level) >= threshold) stderr(`${level}: ${msg}`); },
  }, c.KAFKA_CLIENT);
  const unreachable = (): OpsFailure =>
    new OpsFailure('kafka_unreachable', `Kafka did not answer at ${brokers.join(',')} within ${c.OPS_CONNECT_TIMEOUT_MS} ms (KAFKA_BROKERS, OPS_CONNECT_TIMEOUT_MS)`);
  const t0 = Date.now();
  const admin = await withDeadline(kafka.admin(), c.OPS_CONNECT_TIMEOUT_MS, unreachable);
  // A metadata round trip proves the cluster answers, not only that a socket opened.
  await withDeadline(admin.listTopics(), Math.max(1, c.OPS_CONNECT_TIMEOUT_MS - (Date.now() - t0)), unreachable);
  return { kafka, admin, topics: topicsFromConfig(c), prefix: c.KAFKA_TOPIC_PREFIX, close: () => admin.close() };
}

/** Rejects with `onTimeout()` when `p` has not settled within `ms` (the loser keeps running; the CLI exits). */
export async function withDeadline<T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(onTimeout()), ms); });
  try {
    return await Promise.race([p, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
