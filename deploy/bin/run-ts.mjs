#!/usr/bin/env node
// `node deploy/bin/run-ts.mjs <script.ts> [args…]`: runs a TypeScript entry script (npm run ops,
// replay, redrive, secrets:rotate, bench:*) on a supported Node, as `npm start` and `npm test` run:
// on an older node it fetches the pinned one and re-runs itself there (node-runtime.mjs), then runs
// the script with tsx under the same node flags (`node --max-semi-space-size=64 run-ts.mjs …` keeps
// its flag; worker threads inherit `--import tsx`). Signals are passed on; the script's exit code,
// or the signal it died of, is this process's.
import { spawn } from 'node:child_process';
import { ensureSupportedNode } from './node-runtime.mjs';

const [script, ...args] = process.argv.slice(2);
if (!script) {
  console.error('usage: node deploy/bin/run-ts.mjs <script.ts> [args…]');
  process.exit(2);
}
await ensureSupportedNode();

const child = spawn(process.execPath, [...process.execArgv, '--import', 'tsx', script, ...args], { stdio: 'inherit' });
const handlers = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGUSR2'].map((sig) => {
  const h = () => { if (child.exitCode === null && child.signalCode === null) child.kill(sig); };
  process.on(sig, h);
  return [sig, h];
});
child.on('error', (err) => {
  console.error(`could not run ${script}: ${err.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  for (const [sig, h] of handlers) process.off(sig, h);
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
