// What one platform.events.v1 record brings to the meters (reference accounts §2.2–§2.3, §10): every
// event the events log stores is one `events_ingested`; a read event (`traces.fetched`,
// `traces.queried`) is also `traces_retrieved` += the distinct trace ids it returned, for the user
// who read them (a user-scoped counter). Pure: a replay of the topic brings the same usage.
import type { DecodedEvent } from '@llm/events';

export interface PlatformUsage {
  projectId: string;
  /** '' = the envelope names none (resolved through the project). */
  organizationId: string;
  /** '' = no user. */
  userId: string;
  timeUs: number;
  /** Distinct traces a read event returned; 0 for every other event. */
  tracesRetrieved: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const READ_EVENTS = new Set(['traces.fetched', 'traces.queried']);

const asObject = (json: string): Record<string, unknown> | undefined => {
  try {
    const v: unknown = json ? JSON.parse(json) : {};
    return v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
};

/** Distinct trace ids of a read event: `trace_id` (a read by id) or `trace_ids` (lists and queries). */
function tracesOf(attributes: Record<string, unknown>): number {
  const ids = new Set<string>();
  if (typeof attributes.trace_id === 'string' && attributes.trace_id) ids.add(attributes.trace_id.toLowerCase());
  if (Array.isArray(attributes.trace_ids)) for (const id of attributes.trace_ids) if (typeof id === 'string' && id) ids.add(id.toLowerCase());
  return ids.size;
}

/**
 * The usage of one record, or undefined for a record the events log does not store (another type,
 * no project, no event type, attributes that are not a JSON object: projector-events dead-letters
 * those, so they are not usage).
 */
export function platformUsage(e: DecodedEvent): PlatformUsage | undefined {
  if (e.type !== 'platform.event.recorded') return undefined;
  const p = (e as DecodedEvent<'platform.event.recorded'>).payload;
  if (!UUID.test(e.projectId) || !p.event_type) return undefined;
  const attributes = asObject(p.attributes_json);
  if (!attributes) return undefined;
  const user = typeof attributes.user_id === 'string' && attributes.user_id ? attributes.user_id : (p.user_id || e.actorId);
  return {
    projectId: e.projectId.toLowerCase(),
    organizationId: UUID.test(e.organizationId) ? e.organizationId.toLowerCase() : '',
    userId: user,
    timeUs: e.timeUs,
    tracesRetrieved: READ_EVENTS.has(p.event_type) ? tracesOf(attributes) : 0,
  };
}
