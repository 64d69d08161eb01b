export { createUsageProjector, migrateUsage, USAGE_CONSUMER, USAGE_MIGRATIONS, type UsageProjectorDeps } from './app.ts';
export { usageProjectorConfig } from './config.ts';
