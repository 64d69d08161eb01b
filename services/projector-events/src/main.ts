// projector-events alone: platform.events.v1 → ClickHouse, plus /healthz, /readyz and /metrics on MANAGEMENT_PORT.
// With the embedded ClickHouse it must share the process with the query service (one process per
// data directory), so run it alone only with CLICKHOUSE_URL.
import { parseConfig } from '@llm/config';
import { openClickhouse } from '@llm/clickhouse';
import { createReadiness, listenManagement } from '@llm/http';
import { createLogger } from '@llm/logging';
import { openPostgres } from '@llm/postgres';
import { spanPurgeSettingsFromEnv } from '@llm/project-purge';
import { connectKafka, exitOnBadConfig, httpShutdownSteps, onSignals, runShutdown } from '@llm/runtime';
import { eventsProjectorConfig } from './config.ts';
import { createEventsProjector } from './app.ts';
import { createEventPurge } from './purge/event-purge.ts';

const config = exitOnBadConfig(parseConfig(eventsProjectorConfig, process.env));
const log = createLogger({ name: 'projector-events', level: config.LOG_LEVEL });
const { kafka, topics } = await connectKafka(config, log);
const producer = await kafka.producer();
const ch = await openClickhouse({ url: config.CLICKHOUSE_URL, dataDir: config.CLICKHOUSE_DATA_DIR, database: config.CLICKHOUSE_DATABASE });
const projector = createEventsProjector({ kafka, producer, ch, topics, log });
await projector.start();
// Deleted projects' events leave platform_events in the background (the tombstones are in Postgres).
const purgeSettings = spanPurgeSettingsFromEnv(config);
if (purgeSettings.enabled && !config.DATABASE_URL) log.warn('SPAN_PURGE_ENABLED without DATABASE_URL: deleted projects\' events are not purged by this process');
const pool = purgeSettings.enabled && config.DATABASE_URL ? openPostgres(config.DATABASE_URL, { max: 2 }) : undefined;
const purge = pool ? createEventPurge({ pool, ch, log }, purgeSettings) : undefined;
purge?.start();
const readiness = createReadiness();
readiness.checks.push({ name: 'clickhouse', check: async () => { await ch.client.query({ query: 'SELECT 1' }); } });
// No API here: /healthz, /readyz and /metrics on MANAGEMENT_PORT.
const server = await listenManagement(readiness, config.MANAGEMENT_PORT, config.HOST);
log.info({ management_port: server.port }, 'projector-events running');
onSignals(() => runShutdown([
  ...httpShutdownSteps({ readiness, server, drainMs: config.SHUTDOWN_DRAIN_MS, graceMs: config.SHUTDOWN_GRACE_MS }, log),
  { name: 'events purge', run: async () => { await purge?.stop(); } },
  { name: 'projector', run: () => projector.stop() },
  { name: 'producer', run: () => producer.close() },
  { name: 'postgres', run: async () => { await pool?.end(); } },
  { name: 'clickhouse', run: () => ch.close() },
], log), log);
