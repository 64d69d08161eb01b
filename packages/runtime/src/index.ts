export { connectKafka, topicsFromConfig } from './infrastructure.ts';
export type { KafkaConfig } from './infrastructure.ts';
export { runShutdown, onSignals } from './shutdown.ts';
export type { ShutdownStep } from './shutdown.ts';
export { exitOnBadConfig } from './config-exit.ts';
