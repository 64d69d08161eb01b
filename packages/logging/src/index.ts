export { createLogger } from './logger.ts';
export type { Logger } from './logger.ts';
