// All services in one process: one HTTP app serving both sides of the route table, plus the
// projectors. `npm start` runs this; tests start it in-process on port 0.
import { openClickhouse } from '@llm/clickhouse';
import { createHttpApp, createReadiness, listen, listenManagement, type RunningServer } from '@llm/http';
import type { Logger } from '@llm/logging';
import { openPostgres } from '@llm/postgres';
import { connectKafka, httpShutdownSteps, runShutdown } from '@llm/runtime';
import { createCommandSide, evaluationWorkerSettings, headlessInitFromEnv, ingestPressureFromEnv, joinListeners, signInOptionsFromEnv, startOtlpReceivers } from '@llm/service-command';
import { deploymentMethodsFromEnv } from '@llm/auth-policy';
import { sessionOptionsFromEnv } from '@llm/web-session';
import { createEventRecorder, queryHandlers } from '@llm/service-query';
import { ReadModel, searchDeps, simpleTraceLookup, traceMetrics } from '@llm/span-read';
import { createSpanPurge, createSpansProjector, replayRoutes } from '@llm/service-projector-spans';
import { spanPurgeSettingsFromEnv } from '@llm/project-purge';
import { createRetentionPurges } from './retention-purges.ts';
import { adminAuthenticator, adminPathGate, apiKeyAuthenticator, postgresApiKeyLookup } from '@llm/auth';
import { createAccountsProjector } from '@llm/service-projector-accounts';
import { createEvaluationsProjector } from '@llm/service-projector-evaluations';
import { createWebhookDispatcher, dispatcherSettingsFromEnv } from '@llm/service-webhook-dispatcher';
import { outboundOptionsFromEnv } from '@llm/outbound';
import { createEventPurge, createEventsProjector } from '@llm/service-projector-events';
import { loadAccessCatalog, longestPlanRetentionMinutes } from '@llm/access';
import { postgresPlanResolver } from '@llm/account-model';
import { retentionHorizons } from '@llm/accounts-read';
import { createUsageProjector } from '@llm/service-projector-usage';
import { deploymentThrottle } from '@llm/throttle';
import { createPaymentsProcessor, loadBillingConfig } from '@llm/billing';
import type { AllInOneConfig } from './config.ts';

export interface AllInOne {
  port: number;
  /** The operations listener (MANAGEMENT_PORT): /healthz, /readyz, /metrics. */
  managementPort: number;
  /** The OTLP receivers' ports (OTLP_HTTP_PORT, OTLP_GRPC_PORT); undefined when `off`. */
  otlpHttpPort: number | undefined;
  otlpGrpcPort: number | undefined;
  stop(): Promise<void>;
  /** Stops and restarts the span projector (tests: a projector restarted mid-stream). */
  restartSpansProjector(): Promise<void>;
  stopSpansProjector(): Promise<void>;
  startSpansProjector(): Promise<void>;
}

export async function startAllInOne(config: AllInOneConfig, log: Logger): Promise<AllInOne> {
  const access = loadAccessCatalog(config);
  if (!access.ok) throw new Error(`invalid configuration:\n  ${access.problems.join('\n  ')}`);
  const billing = loadBillingConfig(config, Object.keys(access.config.plans));
  if (!billing.ok) throw new Error(`invalid configuration:\n  ${billing.problems.join('\n  ')}`);
  const init = headlessInitFromEnv(config);
  if (!init.ok) throw new Error(`invalid configuration:\n  ${init.problems.join('\n  ')}`);
  const readiness = createReadiness();
  const longestRetention = longestPlanRetentionMinutes(access.config.plans);
  const { kafka, topics } = await connectKafka(config, log, longestRetention === undefined ? {} : { minDataRetentionMs: longestRetention * 60_000 });
  const producer = await kafka.producer();
  const pool = openPostgres(config.DATABASE_URL, { max: 20 });
  const ch = await openClickhouse({ url: config.CLICKHOUSE_URL, dataDir: config.CLICKHOUSE_DATA_DIR, database: config.CLICKHOUSE_DATABASE });

  const accounts = createAccountsProjector({ kafka, producer, pool, topics, log, ...(config.ACCOUNTS_PLATFORM_FACTS ? {} : { platformFacts: false }) });
  const makeSpans = () => createSpansProjector({ kafka, producer, ch, topics, log, cacheSpans: config.PROJECTOR_TRACE_CACHE_SPANS, cacheBytes: config.PROJECTOR_TRACE_CACHE_BYTES });
  let spans = makeSpans();
  const events = createEventsProjector({ kafka, producer, ch, topics, log });
  const evaluations = createEvaluationsProjector({ kafka, producer, pool, topics, log, purge: spanPurgeSettingsFromEnv(config) });
  // Projectors migrate their stores before the HTTP side serves the first request.
  await Promise.all([accounts.start(), spans.start(), events.start(), evaluations.start()]);
  // The webhook dispatcher reads the accounts read model: started once its tables exist.
  const dispatcher = config.WEBHOOK_DISPATCHER_ENABLED
    ? createWebhookDispatcher({ kafka, producer, pool, topics, log, keyring: config.SECRETS_KEY, outbound: outboundOptionsFromEnv(config), settings: dispatcherSettingsFromEnv(config) })
    : undefined;
  await dispatcher?.start();
  // The usage meters (quota admission, GET /billing/usage) read the spans topic into Postgres.
  const usage = createUsageProjector({ kafka, producer, pool, topics, log, usageReports: { sender: createPaymentsProcessor(billing.config), intervalMs: billing.config.usageReportIntervalMs } });
  await usage.start();
  // Deleted projects' rows leave ClickHouse in the background, each table purged by its owner:
  // projector-spans' worker for spans and trace_index, projector-events' for platform_events.
  const purgeSettings = spanPurgeSettingsFromEnv(config);
  const purges = purgeSettings.enabled ? [createSpanPurge({ pool, ch, log }, purgeSettings), createEventPurge({ pool, ch, log }, purgeSettings)] : [];
  for (const p of purges) p.start();
  // Read events (traces.fetched / traces.queried) go to the events log behind the responses.
  const recorder = config.EVENTS_READ_RECORDING ? createEventRecorder({ producer, topics, log }) : undefined;

  readiness.checks.push(
    { name: 'postgres', check: async () => { await pool.query('SELECT 1'); } },
    { name: 'clickhouse', check: async () => { await ch.client.query({ query: 'SELECT 1' }); } },
  );
  // One API-key cache for both sides: a key revoked through this process stops working at once.
  const apiKeys = apiKeyAuthenticator({ lookup: postgresApiKeyLookup(pool) });
  const plans = postgresPlanResolver(pool, access.config);
  // Rows past their project's retention leave storage in the background (reads skip them at once).
  const retentionPurges = config.RETENTION_PURGE_ENABLED
    ? createRetentionPurges({ pool, ch, log, plans, access: access.config }, { intervalMs: config.RETENTION_PURGE_INTERVAL_MS, stepMs: config.RETENTION_PURGE_STEP_MS, deliveries: config.WEBHOOK_DISPATCHER_ENABLED })
    : [];
  for (const p of retentionPurges) p.start();
  // One cache of projects' retention for both sides: a PATCH on the command side shows in reads at once.
  const horizons = retentionHorizons({ pool, plans, access: access.config });
  const pressure = await ingestPressureFromEnv(config, kafka, topics, log);
  const command = createCommandSide({ log, apiKeys, plans, horizons, billing: billing.config, producer, topics, pool, ingestPressure: pressure.options, adminToken: config.ADMIN_TOKEN, otlpMaxBatchBytes: config.OTLP_MAX_BATCH_BYTES, otlpWorkers: config.OTLP_WORKERS, access: access.config, dns: { servers: config.DNS_SERVERS, timeoutMs: config.DNS_TIMEOUT_MS }, signIn: signInOptionsFromEnv(config), traces: simpleTraceLookup(ch, { queryTimeoutMs: config.QUERY_TIMEOUT_MS, maxResultBytes: config.QUERY_MAX_RESULT_BYTES }), traceMetrics: traceMetrics(ch, { queryTimeoutMs: config.QUERY_TIMEOUT_MS }), metricsTraceWaitMs: config.METRICS_TRACE_WAIT_MS, evaluationWorker: evaluationWorkerSettings(config), traceSearch: searchDeps(new ReadModel(ch, config.QUERY_TIMEOUT_MS), config.QUERY_MAX_RESULT_BYTES) });
  const throttle = deploymentThrottle(access.config, plans, billing.config.freePlan);
  const app = createHttpApp({ log, readiness, jsonLimitBytes: config.JSON_MAX_BODY_BYTES, beforeHandler: throttle, beforeRouting: adminPathGate(config.ADMIN_TOKEN) }, [
    { side: 'command', handlers: command.handlers },
    { side: 'query', handlers: queryHandlers({ apiKeys, plans, horizons, catalog: billing.config, ch, pool, queryTimeoutMs: config.QUERY_TIMEOUT_MS, maxResultBytes: config.QUERY_MAX_RESULT_BYTES, access: access.config, session: sessionOptionsFromEnv(config), deployment: deploymentMethodsFromEnv(config), ...(recorder ? { recorder } : {}) }) },
    { side: 'projector', handlers: replayRoutes({
      kafka, producer, ch, topics, log,
      pauseLive: () => spans.stop(),
      resumeLive: async () => { spans = makeSpans(); await spans.start(); },
    }, adminAuthenticator(config.ADMIN_TOKEN)) },
  ]);
  // OTLP on the standard ports, sharing /otlp/v1/traces' admission; drained with the API.
  const receivers = await startOtlpReceivers({ otlp: command.otlp, throttle, log, host: config.HOST, ports: config });
  const server: RunningServer = joinListeners(await listen(app, config.PORT, config.HOST), receivers);
  // /healthz, /readyz and /metrics: off the public port, on their own listener.
  const management = await listenManagement(readiness, config.MANAGEMENT_PORT, config.HOST);

  const running: AllInOne = {
    port: server.port,
    managementPort: management.port,
    otlpHttpPort: receivers.httpPort,
    otlpGrpcPort: receivers.grpcPort,
    stopSpansProjector: () => spans.stop(),
    async startSpansProjector() { spans = makeSpans(); await spans.start(); },
    async restartSpansProjector() { await spans.stop(); spans = makeSpans(); await spans.start(); },
    async stop() {
      await runShutdown([
        // HTTP drains first: requests in flight still need the projectors and the producer (an
        // account write answers once its event is projected).
        ...httpShutdownSteps({ readiness, server, drainMs: config.SHUTDOWN_DRAIN_MS, graceMs: config.SHUTDOWN_GRACE_MS }, log),
        { name: 'ingest workers', run: () => command.close() },
        { name: 'lag watch', run: async () => { pressure.monitor?.stop(); } },
        { name: 'read events', run: async () => { await recorder?.close(); } },
        { name: 'purges', run: async () => { await Promise.all([...purges, ...retentionPurges].map((p) => p.stop())); } },
        { name: 'projector-spans', run: () => spans.stop() },
        { name: 'projector-events', run: () => events.stop() },
        { name: 'webhook-dispatcher', run: async () => { await dispatcher?.stop(); } },
        { name: 'projector-usage', run: () => usage.stop() },
        { name: 'projector-evaluations', run: () => evaluations.stop() },
        { name: 'projector-accounts', run: () => accounts.stop() },
        { name: 'producer', run: () => producer.close() },
        { name: 'postgres', run: () => pool.end() },
        { name: 'clickhouse', run: () => ch.close() },
        { name: 'management', run: () => management.close(0) },
      ], log);
    },
  };
  // The INIT_* account, through the command path (its event applied by the projector started above);
  // a contradiction with what exists stops the start, after everything started is stopped again.
  if (init.config) await command.initialise(init.config).catch(async (err: unknown) => { await running.stop(); throw err; });
  return running;
}
