export { createCommandSide } from './app.ts';
export type { CommandDeps, CommandSide } from './app.ts';
export { signInEnv, signInOptionsFromEnv } from './sign-in-config.ts';
export type { SignInEnv, SignInOptions } from './sign-in-config.ts';
