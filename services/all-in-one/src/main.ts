// Entry of the all-in-one process: the only reader of process.env.
import { parseConfig } from '@llm/config';
import { createLogger } from '@llm/logging';
import { onSignals } from '@llm/runtime';
import { allInOneConfig } from './config.ts';
import { startAllInOne } from './app.ts';

const parsed = parseConfig(allInOneConfig, process.env);
if (!parsed.ok) {
  console.error(`invalid configuration:\n  ${parsed.problems.join('\n  ')}`);
  process.exit(1);
}
const config = parsed.config;
const log = createLogger({ name: 'all-in-one', level: config.LOG_LEVEL });
const app = await startAllInOne(config, log);
log.info({ port: app.port }, 'all-in-one listening');
process.send?.({ ready: true, port: app.port });
onSignals(() => app.stop(), log);
