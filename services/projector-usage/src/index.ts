export { createUsageProjector, migrateUsage, USAGE_CONSUMER, EVENTS_USAGE_CONSUMER, USAGE_MIGRATIONS, type UsageProjectorDeps } from './app.ts';
export { usageProjectorConfig } from './config.ts';
export { createUsageReporter, runUsageReports, REPORTED_COUNTERS, USAGE_REPORT_LOCK, type UsageReporter, type UsageRunResult, type UsageSender } from './reports/usage-reporter.ts';
