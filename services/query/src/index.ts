export { queryHandlers } from './app.ts';
export type { QueryDeps } from './app.ts';
export { createEventRecorder } from './adapters/event-recorder.ts';
export type { EventRecorder, EventRecorderOptions, ReadEvent } from './adapters/event-recorder.ts';
export { readEventsEnv } from './config.ts';
export { EVENTS_QUERY_MAX_LIMIT } from './http/event-routes.ts';
