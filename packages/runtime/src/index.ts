export { connectKafka, topicsFromConfig } from './infrastructure.ts';
export type { KafkaConfig } from './infrastructure.ts';
export { runShutdown, onSignals, httpShutdownSteps } from './shutdown.ts';
export type { ShutdownStep, DrainableHttp } from './shutdown.ts';
export { exitOnBadConfig } from './config-exit.ts';
export { withConsumerMetrics, readGroupLag } from './consumer-metrics.ts';
