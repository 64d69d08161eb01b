export { createProjectPurgeWorker, forgetPurges } from './project-purge-worker.ts';
export type { ProjectPurgeOptions, ProjectPurgeWorker } from './project-purge-worker.ts';
export { retentionPurgeEnv, spanPurgeEnv, spanPurgeSettingsFromEnv } from './project-purge-config.ts';
export type { PurgeSettings, RetentionPurgeEnv, SpanPurgeEnv } from './project-purge-config.ts';
export { clickhouseRetentionTarget, createRetentionPurgeWorker, postgresRetentionTarget } from './retention-purge-worker.ts';
export type { ProjectCutoff, ProjectHorizon, RetentionData, RetentionPurgeOptions, RetentionPurgeWorker, RetentionTarget } from './retention-purge-worker.ts';
