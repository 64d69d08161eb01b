export { counter, gauge, renderMetrics } from './counters.ts';
