export { createProjectPurgeWorker, forgetPurges } from './project-purge-worker.ts';
export type { ProjectPurgeOptions, ProjectPurgeWorker } from './project-purge-worker.ts';
export { spanPurgeEnv, spanPurgeSettingsFromEnv } from './project-purge-config.ts';
export type { PurgeSettings, SpanPurgeEnv } from './project-purge-config.ts';
