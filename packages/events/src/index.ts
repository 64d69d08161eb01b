export { topicsFor, spansKey } from './topics.ts';
export type { Topics, TopicSpec, TopicSettings } from './topics.ts';
export { EVENT_TYPES, isEventType } from './event-types.ts';
export type { EventType, EventPayloads } from './event-types.ts';
export { encodeEvent, decodeEvent, isEvent } from './codec.ts';
export type { EventMeta, DecodedEvent } from './codec.ts';
export { protoFiles } from './proto-root.ts';
export type { SpanRecord, SpansUpserted, TraceReplaced, TraceDeleted, AccountProvisioned, UserDeleted } from './payloads.ts';
