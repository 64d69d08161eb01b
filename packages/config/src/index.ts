export { parseConfig, envFragments } from './env.ts';
export type { ConfigResult } from './env.ts';
