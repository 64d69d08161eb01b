export { createEvaluationsProjector, EVALUATIONS_CONSUMER, EVALUATIONS_MIGRATIONS, type EvaluationsProjectorDeps } from './app.ts';
export { evaluationsProjectorConfig } from './config.ts';
export { createRunPurge, type RunPurge, type RunPurgeSettings } from './purge/run-purge.ts';
