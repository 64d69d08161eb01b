export { startAllInOne } from './app.ts';
export type { AllInOne } from './app.ts';
export { allInOneConfig } from './config.ts';
export type { AllInOneConfig } from './config.ts';
