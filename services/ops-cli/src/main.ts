// `npm run ops -- <command>`: the operator's entry point (usage: usage.ts). The only reader of
// process.env and argv here; exits explicitly, since Kafka clients may hold the event loop open.
import { runOps } from './run-ops.ts';

const code = await runOps(process.argv.slice(2), process.env, {
  stdout: (text) => new Promise<void>((resolve) => { process.stdout.write(text, () => resolve()); }),
  stderr: (line) => { process.stderr.write(`${line}\n`); },
});
process.exit(code);
