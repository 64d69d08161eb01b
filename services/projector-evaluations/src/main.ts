// projector-evaluations alone: evaluations topic → Postgres, plus /healthz, /readyz and /metrics on MANAGEMENT_PORT.
import { parseConfig } from '@llm/config';
import { createReadiness, listenManagement } from '@llm/http';
import { createLogger } from '@llm/logging';
import { openPostgres } from '@llm/postgres';
import { connectKafka, exitOnBadConfig, httpShutdownSteps, onSignals, runShutdown } from '@llm/runtime';
import { evaluationsProjectorConfig } from './config.ts';
import { spanPurgeSettingsFromEnv } from '@llm/project-purge';
import { createEvaluationsProjector } from './app.ts';

const config = exitOnBadConfig(parseConfig(evaluationsProjectorConfig, process.env));
const log = createLogger({ name: 'projector-evaluations', level: config.LOG_LEVEL });
const { kafka, topics } = await connectKafka(config, log);
const producer = await kafka.producer();
const pool = openPostgres(config.DATABASE_URL);
const projector = createEvaluationsProjector({ kafka, producer, pool, topics, log, purge: spanPurgeSettingsFromEnv(config) });
await projector.start();
const readiness = createReadiness();
readiness.checks.push({ name: 'postgres', check: async () => { await pool.query('SELECT 1'); } });
const server = await listenManagement(readiness, config.MANAGEMENT_PORT, config.HOST);
log.info({ management_port: server.port }, 'projector-evaluations running');
onSignals(() => runShutdown([
  // Writes waiting for their projection in other processes still complete through the drain window.
  ...httpShutdownSteps({ readiness, server, drainMs: config.SHUTDOWN_DRAIN_MS, graceMs: config.SHUTDOWN_GRACE_MS }, log),
  { name: 'projector', run: () => projector.stop() },
  { name: 'producer', run: () => producer.close() },
  { name: 'postgres', run: () => pool.end() },
], log), log);
