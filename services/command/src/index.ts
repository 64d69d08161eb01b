export { createCommandSide } from './app.ts';
export type { CommandDeps, CommandSide } from './app.ts';
