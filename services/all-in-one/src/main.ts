// Entry of the all-in-one process: the only reader of process.env.
import { parseConfig } from '@llm/config';
import { createLogger } from '@llm/logging';
import { exitOnBadConfig, onSignals } from '@llm/runtime';
import { allInOneConfig } from './config.ts';
import { startAllInOne } from './app.ts';

const config = exitOnBadConfig(parseConfig(allInOneConfig, process.env));
const log = createLogger({ name: 'all-in-one', level: config.LOG_LEVEL });
const app = await startAllInOne(config, log);
log.info({ port: app.port, management_port: app.managementPort, otlp_http_port: app.otlpHttpPort ?? 'off', otlp_grpc_port: app.otlpGrpcPort ?? 'off' }, 'all-in-one listening');
process.send?.({ ready: true, port: app.port, managementPort: app.managementPort, otlpHttpPort: app.otlpHttpPort, otlpGrpcPort: app.otlpGrpcPort });
onSignals(() => app.stop(), log);
