// Encode/decode of envelopes and their payloads. Decoding failures are values (the consumer sends
// such records to the dead-letter topic at once).
import { randomUUID } from 'node:crypto';
import { lookup } from './proto-root.ts';
import { EVENT_TYPES, isEventType, type EventPayloads, type EventType } from './event-types.ts';
import type { Result } from '@llm/errors';
import { stripRegistryFrame } from './schema-registry.ts';

const Envelope = lookup('Envelope');
const payloadTypes = new Map(Object.entries(EVENT_TYPES).map(([t, d]) => [t, lookup(d.message)]));
const toObjectOpts = { longs: Number, defaults: true, arrays: true, objects: true } as const;

export interface EventMeta {
  projectId?: string;
  organizationId?: string;
  requestId?: string;
  actorId?: string;
  aggregateId?: string;
  expectedVersion?: number;
  timeUs?: number;
  eventId?: string;
}

export interface DecodedEvent<T extends EventType = EventType> {
  eventId: string;
  type: T;
  schemaVersion: number;
  projectId: string;
  organizationId: string;
  timeUs: number;
  requestId: string;
  actorId: string;
  aggregateId: string;
  expectedVersion: number;
  payload: EventPayloads[T];
}

export function encodeEvent<T extends EventType>(type: T, payload: EventPayloads[T], meta: EventMeta = {}): Buffer {
  const def = EVENT_TYPES[type];
  const pt = payloadTypes.get(type)!;
  const body = pt.encode(pt.fromObject(payload as unknown as Record<string, unknown>)).finish();
  const env = Envelope.encode({
    event_id: meta.eventId ?? randomUUID(),
    type,
    schema_version: def.version,
    project_id: meta.projectId ?? '',
    organization_id: meta.organizationId ?? '',
    time_us: meta.timeUs ?? Date.now() * 1000,
    request_id: meta.requestId ?? '',
    actor_id: meta.actorId ?? '',
    aggregate_id: meta.aggregateId ?? '',
    expected_version: meta.expectedVersion ?? 0,
    payload: body,
  }).finish();
  return Buffer.from(env.buffer, env.byteOffset, env.byteLength);
}

/** Decodes a record value: a bare Envelope, or one in a schema-registry frame (stripped locally). */
export function decodeEvent(buf: Uint8Array): Result<DecodedEvent> {
  try {
    const bare = stripRegistryFrame(Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
    const env = Envelope.toObject(Envelope.decode(bare), toObjectOpts) as {
      event_id: string; type: string; schema_version: number; project_id: string; organization_id: string; time_us: number;
      request_id: string; actor_id: string; aggregate_id: string; expected_version: number; payload: Uint8Array;
    };
    if (!isEventType(env.type)) return { ok: false, error: `unknown event type '${env.type}'` };
    const def = EVENT_TYPES[env.type];
    if (env.schema_version !== def.version) {
      return { ok: false, error: `unsupported schema version ${env.schema_version} of '${env.type}' (expected ${def.version})` };
    }
    const pt = payloadTypes.get(env.type)!;
    const payload = pt.toObject(pt.decode(env.payload), toObjectOpts) as EventPayloads[EventType];
    return {
      ok: true,
      value: {
        eventId: env.event_id, type: env.type, schemaVersion: env.schema_version, projectId: env.project_id,
        organizationId: env.organization_id, timeUs: env.time_us, requestId: env.request_id, actorId: env.actor_id,
        aggregateId: env.aggregate_id, expectedVersion: env.expected_version, payload,
      },
    };
  } catch (err) {
    return { ok: false, error: `undecodable envelope: ${(err as Error).message}` };
  }
}

/** Narrowing helper for exhaustive handlers. */
export const isEvent = <T extends EventType>(e: DecodedEvent, t: T): e is DecodedEvent<T> => e.type === t;
