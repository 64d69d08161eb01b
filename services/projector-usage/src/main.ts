// projector-usage alone: the usage meters' consumer, plus /healthz, /readyz and /metrics on MANAGEMENT_PORT.
import { parseConfig } from '@llm/config';
import { createReadiness, listenManagement } from '@llm/http';
import { createLogger } from '@llm/logging';
import { openPostgres } from '@llm/postgres';
import { connectKafka, exitOnBadConfig, httpShutdownSteps, onSignals, runShutdown } from '@llm/runtime';
import { usageProjectorConfig } from './config.ts';
import { createUsageProjector } from './app.ts';
import { loadAccessCatalog } from '@llm/access';
import { createPaymentsProcessor, loadBillingConfig } from '@llm/billing';

const config = exitOnBadConfig(parseConfig(usageProjectorConfig, process.env));
const access = exitOnBadConfig(loadAccessCatalog(config));
const billing = exitOnBadConfig(loadBillingConfig(config, Object.keys(access.plans)));
const log = createLogger({ name: 'projector-usage', level: config.LOG_LEVEL });
const { kafka, topics } = await connectKafka(config, log);
const producer = await kafka.producer();
const pool = openPostgres(config.DATABASE_URL);
const projector = createUsageProjector({ kafka, producer, pool, topics, log, usageReports: { sender: createPaymentsProcessor(billing), intervalMs: billing.usageReportIntervalMs } });
await projector.start();
const readiness = createReadiness();
readiness.checks.push({ name: 'postgres', check: async () => { await pool.query('SELECT 1'); } });
// No API here: /healthz, /readyz and /metrics on MANAGEMENT_PORT.
const server = await listenManagement(readiness, config.MANAGEMENT_PORT, config.HOST);
log.info({ management_port: server.port }, 'projector-usage running');
onSignals(() => runShutdown([
  ...httpShutdownSteps({ readiness, server, drainMs: config.SHUTDOWN_DRAIN_MS, graceMs: config.SHUTDOWN_GRACE_MS }, log),
  { name: 'projector-usage', run: () => projector.stop() },
  { name: 'producer', run: () => producer.close() },
  { name: 'postgres', run: () => pool.end() },
], log), log);
