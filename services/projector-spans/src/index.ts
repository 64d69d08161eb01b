export { createSpansProjector, migrateSpans, SPANS_GROUP, SPANS_TABLE, SPANS_MIGRATIONS } from './app.ts';
export type { SpansProjectorDeps } from './app.ts';
