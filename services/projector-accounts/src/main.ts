// projector-accounts alone: accounts topic → Postgres, plus /healthz, /readyz and /metrics on MANAGEMENT_PORT.
import { parseConfig } from '@llm/config';
import { createReadiness, listenManagement } from '@llm/http';
import { createLogger } from '@llm/logging';
import { openPostgres } from '@llm/postgres';
import { connectKafka, exitOnBadConfig, httpShutdownSteps, onSignals, runShutdown } from '@llm/runtime';
import { accountsProjectorConfig } from './config.ts';
import { createAccountsProjector } from './app.ts';

const config = exitOnBadConfig(parseConfig(accountsProjectorConfig, process.env));
const log = createLogger({ name: 'projector-accounts', level: config.LOG_LEVEL });
const { kafka, topics } = await connectKafka(config, log);
const producer = await kafka.producer();
const pool = openPostgres(config.DATABASE_URL);
const projector = createAccountsProjector({ kafka, producer, pool, topics, log, ...(config.ACCOUNTS_PLATFORM_FACTS ? {} : { platformFacts: false }) });
await projector.start();
const readiness = createReadiness();
readiness.checks.push({ name: 'postgres', check: async () => { await pool.query('SELECT 1'); } });
// No API here: /healthz, /readyz and /metrics on MANAGEMENT_PORT.
const server = await listenManagement(readiness, config.MANAGEMENT_PORT, config.HOST);
log.info({ management_port: server.port }, 'projector-accounts running');
onSignals(() => runShutdown([
  // The projector keeps applying events through the drain window: writes waiting for their
  // projection in other processes still complete.
  ...httpShutdownSteps({ readiness, server, drainMs: config.SHUTDOWN_DRAIN_MS, graceMs: config.SHUTDOWN_GRACE_MS }, log),
  { name: 'projector', run: () => projector.stop() },
  { name: 'producer', run: () => producer.close() },
  { name: 'postgres', run: () => pool.end() },
], log), log);
