export { counter, renderMetrics } from './counters.ts';
