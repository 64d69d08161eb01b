export { commandHandlers } from './app.ts';
export type { CommandDeps } from './app.ts';
