// webhook-dispatcher alone: fan-out, sender and deliveries projector, plus /healthz, /readyz and /metrics on MANAGEMENT_PORT.
import { parseConfig } from '@llm/config';
import { createReadiness, listenManagement } from '@llm/http';
import { createLogger } from '@llm/logging';
import { outboundOptionsFromEnv } from '@llm/outbound';
import { openPostgres } from '@llm/postgres';
import { connectKafka, exitOnBadConfig, httpShutdownSteps, onSignals, runShutdown } from '@llm/runtime';
import { dispatcherSettingsFromEnv, webhookDispatcherConfig } from './config.ts';
import { createWebhookDispatcher } from './app.ts';

const config = exitOnBadConfig(parseConfig(webhookDispatcherConfig, process.env));
const log = createLogger({ name: 'webhook-dispatcher', level: config.LOG_LEVEL });
const { kafka, topics } = await connectKafka(config, log);
const producer = await kafka.producer();
const pool = openPostgres(config.DATABASE_URL);
const dispatcher = createWebhookDispatcher({
  kafka, producer, pool, topics, log, keyring: config.SECRETS_KEY, outbound: outboundOptionsFromEnv(config), settings: dispatcherSettingsFromEnv(config),
});
await dispatcher.start();
const readiness = createReadiness();
readiness.checks.push({ name: 'postgres', check: async () => { await pool.query('SELECT 1'); } });
// No API here: /healthz, /readyz and /metrics on MANAGEMENT_PORT.
const server = await listenManagement(readiness, config.MANAGEMENT_PORT, config.HOST);
log.info({ management_port: server.port }, 'webhook-dispatcher running');
onSignals(() => runShutdown([
  ...httpShutdownSteps({ readiness, server, drainMs: config.SHUTDOWN_DRAIN_MS, graceMs: config.SHUTDOWN_GRACE_MS }, log),
  { name: 'webhook-dispatcher', run: () => dispatcher.stop() },
  { name: 'producer', run: () => producer.close() },
  { name: 'postgres', run: () => pool.end() },
], log), log);
