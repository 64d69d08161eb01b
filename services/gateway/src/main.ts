// The gateway alone (split deployment): proxies by the route table to the command, query and
// projector-spans services.
import { parseConfig } from '@llm/config';
import { createReadiness, listen, listenManagement } from '@llm/http';
import { createLogger } from '@llm/logging';
import { exitOnBadConfig, httpShutdownSteps, onSignals, runShutdown } from '@llm/runtime';
import { gatewayConfig } from './config.ts';
import { createGateway } from './app.ts';

const config = exitOnBadConfig(parseConfig(gatewayConfig, process.env));
const log = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
const readiness = createReadiness();
const app = createGateway({ command: config.COMMAND_URL, query: config.QUERY_URL, projector: config.PROJECTOR_URL }, log, readiness);
const server = await listen(app, config.PORT, config.HOST);
const management = await listenManagement(readiness, config.MANAGEMENT_PORT, config.HOST);
log.info({ port: server.port, management_port: management.port }, 'gateway listening');
onSignals(() => runShutdown([
  ...httpShutdownSteps({ readiness, server, drainMs: config.SHUTDOWN_DRAIN_MS, graceMs: config.SHUTDOWN_GRACE_MS }, log),
  { name: 'management', run: () => management.close(0) },
], log), log);
