// projector-spans alone: spans topic → ClickHouse, plus a small HTTP server for health and the
// replay operation (PORT, default 8000).
import { parseConfig } from '@llm/config';
import { openClickhouse } from '@llm/clickhouse';
import { adminAuthenticator, adminPathGate } from '@llm/auth';
import { createHttpApp, createReadiness, listen, listenManagement } from '@llm/http';
import { createLogger } from '@llm/logging';
import { openPostgres } from '@llm/postgres';
import { spanPurgeSettingsFromEnv } from '@llm/project-purge';
import { connectKafka, exitOnBadConfig, httpShutdownSteps, onSignals, runShutdown } from '@llm/runtime';
import { spansProjectorConfig } from './config.ts';
import { createSpansProjector } from './app.ts';
import { replayRoutes } from './http/replay-route.ts';
import { createSpanPurge } from './purge/span-purge.ts';

const config = exitOnBadConfig(parseConfig(spansProjectorConfig, process.env));
const log = createLogger({ name: 'projector-spans', level: config.LOG_LEVEL });
const { kafka, topics } = await connectKafka(config, log);
const producer = await kafka.producer();
const ch = await openClickhouse({ url: config.CLICKHOUSE_URL, dataDir: config.CLICKHOUSE_DATA_DIR, database: config.CLICKHOUSE_DATABASE });
const makeProjector = () => createSpansProjector({ kafka, producer, ch, topics, log, cacheSpans: config.PROJECTOR_TRACE_CACHE_SPANS, cacheBytes: config.PROJECTOR_TRACE_CACHE_BYTES });
let projector = makeProjector();
await projector.start();
// Deleted projects' rows leave the span tables in the background (the tombstones are in Postgres).
const purgeSettings = spanPurgeSettingsFromEnv(config);
if (purgeSettings.enabled && !config.DATABASE_URL) log.warn('SPAN_PURGE_ENABLED without DATABASE_URL: deleted projects\' spans are not purged by this process');
const pool = purgeSettings.enabled && config.DATABASE_URL ? openPostgres(config.DATABASE_URL, { max: 2 }) : undefined;
const purge = pool ? createSpanPurge({ pool, ch, log }, purgeSettings) : undefined;
purge?.start();
const readiness = createReadiness();
readiness.checks.push({ name: 'clickhouse', check: async () => { await ch.client.query({ query: 'SELECT 1' }); } });
const app = createHttpApp({ log, readiness, jsonLimitBytes: 1024 * 1024, beforeRouting: adminPathGate(config.ADMIN_TOKEN) }, [
  { side: 'projector', handlers: replayRoutes({
    kafka, producer, ch, topics, log,
    pauseLive: () => projector.stop(),
    resumeLive: async () => { projector = makeProjector(); await projector.start(); },
  }, adminAuthenticator(config.ADMIN_TOKEN)) },
]);
const server = await listen(app, config.PORT, config.HOST);
const management = await listenManagement(readiness, config.MANAGEMENT_PORT, config.HOST);
log.info({ port: server.port, management_port: management.port }, 'projector-spans running');
onSignals(() => runShutdown([
  // The projector keeps applying events through the drain window: writes waiting for their
  // projection in other processes still complete.
  ...httpShutdownSteps({ readiness, server, drainMs: config.SHUTDOWN_DRAIN_MS, graceMs: config.SHUTDOWN_GRACE_MS }, log),
  { name: 'span purge', run: async () => { await purge?.stop(); } },
  { name: 'projector', run: () => projector.stop() },
  { name: 'producer', run: () => producer.close() },
  { name: 'postgres', run: async () => { await pool?.end(); } },
  { name: 'clickhouse', run: () => ch.close() },
  { name: 'management', run: () => management.close(0) },
], log), log);
