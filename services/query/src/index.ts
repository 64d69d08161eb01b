export { queryHandlers } from './app.ts';
export type { QueryDeps } from './app.ts';
export { createEventRecorder } from './adapters/event-recorder.ts';
export type { EventRecorder, EventRecorderOptions, ReadEvent } from './adapters/event-recorder.ts';
export { readEventsEnv } from './config.ts';
export { simpleTraceLookup, type SimpleTraceLookup } from './adapters/simple-trace-lookup.ts';
export { createSpanPurgeWorker, forgetSpanPurges, PURGED_TABLES, type SpanPurgeWorker, type SpanPurgeOptions } from './purge/span-purge-worker.ts';
export { spanPurgeEnv, spanPurgeSettingsFromEnv, type SpanPurgeEnv } from './purge/span-purge-config.ts';
export { EVENTS_QUERY_MAX_LIMIT } from './http/event-routes.ts';
