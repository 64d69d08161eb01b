export { runOps } from './run-ops.ts';
export type { ExitCode, OpsIo } from './run-ops.ts';
export { parseCliArgs } from './cli-args.ts';
export type { OpsCommand, ParsedArgs } from './cli-args.ts';
