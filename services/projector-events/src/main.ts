// projector-events alone: platform.events.v1 → ClickHouse, plus /healthz and /readyz on PORT.
// With the embedded ClickHouse it must share the process with the query service (one process per
// data directory), so run it alone only with CLICKHOUSE_URL.
import { parseConfig } from '@llm/config';
import { openClickhouse } from '@llm/clickhouse';
import { createHttpApp, createReadiness, listen } from '@llm/http';
import { createLogger } from '@llm/logging';
import { connectKafka, exitOnBadConfig, httpShutdownSteps, onSignals, runShutdown } from '@llm/runtime';
import { eventsProjectorConfig } from './config.ts';
import { createEventsProjector } from './app.ts';

const config = exitOnBadConfig(parseConfig(eventsProjectorConfig, process.env));
const log = createLogger({ name: 'projector-events', level: config.LOG_LEVEL });
const { kafka, topics } = await connectKafka(config, log);
const producer = await kafka.producer();
const ch = await openClickhouse({ url: config.CLICKHOUSE_URL, dataDir: config.CLICKHOUSE_DATA_DIR, database: config.CLICKHOUSE_DATABASE });
const projector = createEventsProjector({ kafka, producer, ch, topics, log });
await projector.start();
const readiness = createReadiness();
readiness.checks.push({ name: 'clickhouse', check: async () => { await ch.client.query({ query: 'SELECT 1' }); } });
const server = await listen(createHttpApp({ log, readiness, jsonLimitBytes: 1024 }, []), config.PORT, config.HOST);
log.info({ port: server.port }, 'projector-events running');
onSignals(() => runShutdown([
  ...httpShutdownSteps({ readiness, server, drainMs: config.SHUTDOWN_DRAIN_MS, graceMs: config.SHUTDOWN_GRACE_MS }, log),
  { name: 'projector', run: () => projector.stop() },
  { name: 'producer', run: () => producer.close() },
  { name: 'clickhouse', run: () => ch.close() },
], log), log);
