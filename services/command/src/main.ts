// The command service alone: HTTP write side → Kafka. The only reader of process.env.
import { parseConfig } from '@llm/config';
import { createHttpApp, createReadiness, listen, listenManagement } from '@llm/http';
import { createLogger } from '@llm/logging';
import { openPostgres } from '@llm/postgres';
import { connectKafka, exitOnBadConfig, httpShutdownSteps, onSignals, runShutdown } from '@llm/runtime';
import { commandConfig } from './config.ts';
import { headlessInitFromEnv } from './headless-init-config.ts';
import { createCommandSide } from './app.ts';
import { signInOptionsFromEnv } from './sign-in-config.ts';
import { ingestPressureFromEnv } from './ingest-pressure-config.ts';
import { evaluationWorkerSettings } from './evaluations/metrics-refresh-config.ts';
import { loadAccessCatalog } from '@llm/access';
import { postgresPlanResolver } from '@llm/account-model';
import { deploymentThrottle } from '@llm/throttle';
import { loadBillingConfig } from '@llm/billing';
import { adminPathGate } from '@llm/auth';
import { openClickhouse } from '@llm/clickhouse';
import { ReadModel, searchDeps, simpleTraceLookup, traceMetrics } from '@llm/span-read';
import { joinListeners, startOtlpReceivers } from './otlp-receivers.ts';

const config = exitOnBadConfig(parseConfig(commandConfig, process.env));
const access = exitOnBadConfig(loadAccessCatalog(config));
const billing = exitOnBadConfig(loadBillingConfig(config, Object.keys(access.plans)));
const init = exitOnBadConfig(headlessInitFromEnv(config));
const log = createLogger({ name: 'command', level: config.LOG_LEVEL });
const { kafka, topics } = await connectKafka(config, log);
const producer = await kafka.producer();
const pool = openPostgres(config.DATABASE_URL);
const readiness = createReadiness();
readiness.checks.push({ name: 'postgres', check: async () => { await pool.query('SELECT 1'); } });
const plans = postgresPlanResolver(pool, access);
const ch = config.CLICKHOUSE_URL
  ? await openClickhouse({ url: config.CLICKHOUSE_URL, dataDir: '', database: config.CLICKHOUSE_DATABASE })
  : undefined;
if (ch) readiness.checks.push({ name: 'clickhouse', check: async () => { await ch.client.query({ query: 'SELECT 1' }); } });
const pressure = await ingestPressureFromEnv(config, kafka, topics, log);
const command = createCommandSide({ log, plans, billing, producer, topics, pool, ingestPressure: pressure.options, adminToken: config.ADMIN_TOKEN, otlpMaxBatchBytes: config.OTLP_MAX_BATCH_BYTES, otlpWorkers: config.OTLP_WORKERS, access, dns: { servers: config.DNS_SERVERS, timeoutMs: config.DNS_TIMEOUT_MS }, signIn: signInOptionsFromEnv(config), ...(ch ? { traces: simpleTraceLookup(ch), traceMetrics: traceMetrics(ch), traceSearch: searchDeps(new ReadModel(ch)) } : {}), metricsTraceWaitMs: config.METRICS_TRACE_WAIT_MS, evaluationWorker: evaluationWorkerSettings(config) });
const throttle = deploymentThrottle(access, plans, billing.freePlan);
const app = createHttpApp({ log, readiness, jsonLimitBytes: config.JSON_MAX_BODY_BYTES, beforeHandler: throttle, beforeRouting: adminPathGate(config.ADMIN_TOKEN) }, [
  { side: 'command', handlers: command.handlers },
]);
// OTLP on the standard ports, sharing /otlp/v1/traces' admission; drained with the API.
const receivers = await startOtlpReceivers({ otlp: command.otlp, throttle, log, host: config.HOST, ports: config });
const api = await listen(app, config.PORT, config.HOST);
const management = await listenManagement(readiness, config.MANAGEMENT_PORT, config.HOST);
log.info({ port: api.port, management_port: management.port }, 'command service listening');
// The INIT_* account (every replica checks; the first creates it, the others find it). A
// contradiction with what exists ends the process: the deployment is not what it says.
if (init) {
  await command.initialise(init).catch((err: unknown) => {
    log.fatal({ err }, `headless initialisation failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
const server = joinListeners(api, receivers);
onSignals(() => runShutdown([
  ...httpShutdownSteps({ readiness, server, drainMs: config.SHUTDOWN_DRAIN_MS, graceMs: config.SHUTDOWN_GRACE_MS }, log),
  { name: 'ingest workers', run: () => command.close() },
  { name: 'lag watch', run: async () => { pressure.monitor?.stop(); } },
  { name: 'producer', run: () => producer.close() },
  { name: 'postgres', run: () => pool.end() },
  { name: 'clickhouse', run: async () => { await ch?.close(); } },
  { name: 'management', run: () => management.close(0) },
], log), log);
