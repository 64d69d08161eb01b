export { queryHandlers } from './app.ts';
export type { QueryDeps } from './app.ts';
