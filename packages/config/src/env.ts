import { z } from 'zod';
import { DEFAULT_KAFKA_CLIENT, KAFKA_CLIENT_KINDS } from '@llm/kafka';

// Empty strings are "unset" (docker-compose and shells produce them for unset variables).
function dropEmpty(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

export type ConfigResult<T> = { ok: true; config: T } | { ok: false; problems: string[] };

export function parseConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>): ConfigResult<z.infer<S>> {
  const r = schema.safeParse(dropEmpty(env));
  if (r.success) return { ok: true, config: r.data };
  return { ok: false, problems: r.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`) };
}

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Shared fragments; each service composes the ones it needs into its own schema. */
export const envFragments = {
  logging: z.object({ LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info') }),
  http: z.object({
    PORT: port.default(8000),
    HOST: z.string().default('0.0.0.0'),
    // /healthz, /readyz and /metrics: a listener of their own, off the public API port (issue 29).
    MANAGEMENT_PORT: port.default(9464),
    // Shutdown: requests are still served this long after readiness turned 503 (load balancers
    // notice readiness first), then in-flight requests get SHUTDOWN_GRACE_MS to finish.
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(300_000).default(5_000),
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(300_000).default(20_000),
  }),
  kafka: z.object({
    KAFKA_BROKERS: z.string().describe('comma-separated host:port list'),
    KAFKA_CLIENT_ID: z.string().default('llm-backend'),
    KAFKA_TOPIC_PREFIX: z.string().default(''),
    KAFKA_SPANS_PARTITIONS: positiveInt.default(6),
    // One partition: account rules that span aggregates (a key needs its project, a role its user)
    // are decided in the topic's total order, which a replay reproduces only with one partition.
    KAFKA_ACCOUNTS_PARTITIONS: positiveInt.max(1, 'the accounts topic has one partition: account rules spanning aggregates are decided in its total order (docs/decisions.md)').default(1),
    // The data topics keep at least the longest plan retention (92 days, cloud_v0_business): a replay
    // rebuilds everything a reader may still see (issue 30; docs/operations.md "Retention").
    KAFKA_SPANS_RETENTION_MS: z.coerce.number().int().default(92 * 24 * 3600 * 1000),
    KAFKA_DLQ_RETENTION_MS: z.coerce.number().int().default(14 * 24 * 3600 * 1000),
    // The events log (POST /events/query, webhook fan-out): the audit horizon of the topic.
    KAFKA_PLATFORM_EVENTS_PARTITIONS: positiveInt.default(3),
    KAFKA_PLATFORM_EVENTS_RETENTION_MS: z.coerce.number().int().default(92 * 24 * 3600 * 1000),
    KAFKA_DELIVERIES_PARTITIONS: positiveInt.default(3),
    KAFKA_DELIVERIES_RETENTION_MS: z.coerce.number().int().default(92 * 24 * 3600 * 1000),
    // Evaluation runs (keyed by run: runs project in parallel; kept forever, like accounts).
    KAFKA_EVALUATIONS_PARTITIONS: positiveInt.default(6),
    KAFKA_CLIENT: z.enum(KAFKA_CLIENT_KINDS).default(DEFAULT_KAFKA_CLIENT),
    SCHEMA_REGISTRY_URL: z.string().url().optional(),
  }),
  postgres: z.object({ DATABASE_URL: z.string().url() }),
  clickhouse: z.object({
    CLICKHOUSE_URL: z.string().url().optional(),
    CLICKHOUSE_DATA_DIR: z.string().default('.data/clickhouse'),
    CLICKHOUSE_DATABASE: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).default('llm'),
  }),
  admin: z.object({ ADMIN_TOKEN: z.string().min(16, 'ADMIN_TOKEN must be at least 16 characters') }),
  bool,
  positiveInt,
};
