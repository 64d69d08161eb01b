export { createCommandSide } from './app.ts';
export type { CommandDeps, CommandSide } from './app.ts';
export { signInEnv, signInOptionsFromEnv } from './sign-in-config.ts';
export type { SignInEnv, SignInOptions } from './sign-in-config.ts';
export { ingestPressureEnv, ingestPressureFromEnv } from './ingest-pressure-config.ts';
export type { IngestPressureEnv, IngestPressureRuntime } from './ingest-pressure-config.ts';
