export { createEventsProjector, migrateEvents, EVENTS_GROUP, EVENTS_MIGRATIONS } from './app.ts';
export type { EventsProjectorDeps } from './app.ts';
export { EVENTS_TABLE } from './adapters/event-table.ts';
export { platformEventRow, chTime } from './domain/event-row.ts';
export type { PlatformEventRow } from './domain/event-row.ts';
export { eventsProjectorConfig } from './config.ts';
export { createEventPurge, EVENT_PURGE_LEDGER } from './purge/event-purge.ts';
export { eventRetentionTargets } from './purge/event-retention.ts';
