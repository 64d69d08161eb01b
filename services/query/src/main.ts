// The query service alone: HTTP read side over ClickHouse and Postgres. With the embedded ClickHouse
// it must share the process with projector-spans, so run it alone only with CLICKHOUSE_URL. Kafka is
// needed for the read events (platform.events.v1); EVENTS_READ_RECORDING=false turns them off.
import { parseConfig } from '@llm/config';
import { openClickhouse } from '@llm/clickhouse';
import { createHttpApp, createReadiness, listen, listenManagement } from '@llm/http';
import { createLogger } from '@llm/logging';
import { openPostgres } from '@llm/postgres';
import { connectKafka, exitOnBadConfig, httpShutdownSteps, onSignals, runShutdown } from '@llm/runtime';
import { queryConfig } from './config.ts';
import { queryHandlers } from './app.ts';
import { createEventRecorder } from './adapters/event-recorder.ts';
import { deploymentMethodsFromEnv } from '@llm/auth-policy';
import { sessionOptionsFromEnv } from '@llm/web-session';
import { loadAccessCatalog } from '@llm/access';
import { postgresPlanResolver } from '@llm/account-model';
import { deploymentThrottle } from '@llm/throttle';
import { loadBillingConfig } from '@llm/billing';

const config = exitOnBadConfig(parseConfig(queryConfig, process.env));
const access = exitOnBadConfig(loadAccessCatalog(config));
const billing = exitOnBadConfig(loadBillingConfig(config, Object.keys(access.plans)));
const log = createLogger({ name: 'query', level: config.LOG_LEVEL });
const pool = openPostgres(config.DATABASE_URL);
const ch = await openClickhouse({ url: config.CLICKHOUSE_URL, dataDir: config.CLICKHOUSE_DATA_DIR, database: config.CLICKHOUSE_DATABASE });
const { kafka, topics } = await connectKafka(config, log);
const producer = await kafka.producer();
const recorder = config.EVENTS_READ_RECORDING ? createEventRecorder({ producer, topics, log }) : undefined;
const readiness = createReadiness();
readiness.checks.push(
  { name: 'postgres', check: async () => { await pool.query('SELECT 1'); } },
  { name: 'clickhouse', check: async () => { await ch.client.query({ query: 'SELECT 1' }); } },
);
const plans = postgresPlanResolver(pool, access);
const app = createHttpApp({ log, readiness, jsonLimitBytes: config.JSON_MAX_BODY_BYTES, beforeHandler: deploymentThrottle(access, plans, billing.freePlan) }, [{ side: 'query', handlers: queryHandlers({ plans, catalog: billing, ch, pool, queryTimeoutMs: config.QUERY_TIMEOUT_MS, maxResultBytes: config.QUERY_MAX_RESULT_BYTES, access, session: sessionOptionsFromEnv(config), deployment: deploymentMethodsFromEnv(config), ...(recorder ? { recorder } : {}) }) }]);
const server = await listen(app, config.PORT, config.HOST);
const management = await listenManagement(readiness, config.MANAGEMENT_PORT, config.HOST);
log.info({ port: server.port, management_port: management.port }, 'query service listening');
onSignals(() => runShutdown([
  ...httpShutdownSteps({ readiness, server, drainMs: config.SHUTDOWN_DRAIN_MS, graceMs: config.SHUTDOWN_GRACE_MS }, log),
  // Read events queued behind the last responses go out before the producer closes.
  { name: 'read events', run: async () => { await recorder?.close(); } },
  { name: 'producer', run: () => producer.close() },
  { name: 'postgres', run: () => pool.end() },
  { name: 'clickhouse', run: () => ch.close() },
  { name: 'management', run: () => management.close(0) },
], log), log);
