// Starts the whole stack in-process for one test file, against the real Kafka and Postgres of the
// run: a fresh Postgres database, topics under a random prefix, and a fresh embedded ClickHouse
// directory, so test files never see each other's data.
// It lives here, not in packages/testing, because it imports a service: packages never do.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { parseConfig } from '@llm/config';
import { createLogger } from '@llm/logging';
import { allInOneConfig, startAllInOne, type AllInOne } from '@llm/service-all-in-one';
import { pickSecrets, testSecretsEnv, type TestSecretsEnv } from '@llm/testing/secrets';
import { checkResponsesAgainstDocument } from './response-contract.ts';

export interface TestApp {
  baseUrl: string;
  /** The operations listener: /healthz, /readyz, /metrics (MANAGEMENT_PORT). */
  managementUrl: string;
  adminToken: string;
  /** The run's broker list and this app's topic prefix / ClickHouse location, for white-box checks. */
  kafkaBrokers: string;
  databaseUrl: string;
  topicPrefix: string;
  clickhouse: { dataDir: string; database: string };
  app: AllInOne;
  /** The session and secrets keys this app runs with (for processes started beside it). */
  secrets: TestSecretsEnv;
  stop(): Promise<void>;
}

export async function startTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const id = randomBytes(4).toString('hex');
  const serverUrl = inject('databaseUrl');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE t_${id}`);
  await admin.end();
  const adminToken = randomBytes(16).toString('hex');
  const secrets = testSecretsEnv();
  const parsed = parseConfig(allInOneConfig, {
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    KAFKA_BROKERS: inject('kafkaBrokers'),
    KAFKA_TOPIC_PREFIX: `t${id}.`,
    KAFKA_SPANS_PARTITIONS: '3',
    KAFKA_ACCOUNTS_PARTITIONS: '1',
    DATABASE_URL: serverUrl.replace(/\/[^/]*$/, `/t_${id}`),
    CLICKHOUSE_DATA_DIR: path.join(inject('runDir'), `ch-${id}`),
    ADMIN_TOKEN: adminToken,
    // No load balancer to wait for: stop() goes straight to finishing what is in flight.
    SHUTDOWN_DRAIN_MS: '0',
    // See vitest.config.ts: shedding by projector lag only far behind, unless a test says otherwise.
    INGEST_SHED_LAG_MS: '30000',
    INGEST_MAX_LAG_MS: '120000',
    // The OTLP receivers on any free port (app.otlpHttpPort / app.otlpGrpcPort).
    OTLP_HTTP_PORT: '0',
    OTLP_GRPC_PORT: '0',
    MANAGEMENT_PORT: '0',
    ...secrets,
    ...overrides,
  });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  const log = createLogger({ name: 'test', level: parsed.config.LOG_LEVEL });
  const app = await startAllInOne(parsed.config, log);
  // Every JSON answer this app gives the test must match the OpenAPI document (response-contract.ts).
  checkResponsesAgainstDocument(`http://127.0.0.1:${app.port}`);
  return {
    baseUrl: `http://127.0.0.1:${app.port}`, managementUrl: `http://127.0.0.1:${app.managementPort}`, adminToken, app, secrets: { ...secrets, ...pickSecrets(overrides) }, stop: () => app.stop(),
    kafkaBrokers: parsed.config.KAFKA_BROKERS, databaseUrl: parsed.config.DATABASE_URL, topicPrefix: parsed.config.KAFKA_TOPIC_PREFIX,
    clickhouse: { dataDir: parsed.config.CLICKHOUSE_DATA_DIR, database: parsed.config.CLICKHOUSE_DATABASE },
  };
}

