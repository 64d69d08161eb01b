// Account facts that become platform events (DESIGN "Events and webhooks": only facts become events).
// Called inside the projector's batch transaction for an event it ACCEPTED: the platform event is
// written to platform_outbox (0011-webhooks.sql) in that transaction, so it exists if and only if the
// fact was committed; outbox/relay.ts publishes it after the commit. The event id is derived from the
// accounts record's position, so a re-delivery or a second pass derives the same id.
import { derivedEventId, encodeEvent, isEvent, type DecodedEvent } from '@llm/events';
import type { IncomingRecord } from '@llm/kafka';
import type { PoolClient } from '@llm/postgres';
import { querySlugsOfVariant } from '@llm/account-model';

interface Revision { id: string; slug: string; version: number | string; message: string }

/** The references of a saved-query revision event (reference accounts §10). */
function queryAttributes(e: DecodedEvent, q: { id: string; slug: string }, v: { id: string; slug: string }, r: Revision): Record<string, unknown> {
  return {
    user_id: e.actorId || null,
    references: { query: q, query_variant: v, query_revision: { id: r.id, slug: r.slug, version: r.version } },
    ...(r.message ? { message: r.message } : {}),
  };
}

/** The platform events of one accepted accounts event (none for most types). */
async function factsOf(c: PoolClient, e: DecodedEvent): Promise<Array<{ eventType: string; attributes: Record<string, unknown> }>> {
  if (isEvent(e, 'accounts.query.created')) {
    const p = e.payload;
    return [{ eventType: 'queries.revisions.committed', attributes: queryAttributes(e, { id: p.query_id, slug: p.slug }, { id: p.variant_id, slug: p.variant_slug }, p.revision) }];
  }
  if (isEvent(e, 'accounts.query.revision.committed')) {
    const p = e.payload;
    // The slugs are the projection's (just written in this transaction).
    const slugs = await querySlugsOfVariant(c, p.variant_id);
    return [{ eventType: 'queries.revisions.committed', attributes: queryAttributes(e, { id: p.query_id, slug: slugs?.query ?? '' }, { id: p.variant_id, slug: slugs?.variant ?? '' }, p.revision) }];
  }
  if (isEvent(e, 'accounts.query.revision.added')) {
    const p = e.payload;
    const slugs = await querySlugsOfVariant(c, p.variant_id);
    return [{
      eventType: 'queries.revisions.committed',
      attributes: queryAttributes(e, { id: p.query_id, slug: slugs?.query ?? '' }, { id: p.variant_id, slug: slugs?.variant ?? '' },
        { id: p.revision_id, slug: p.slug, version: String(p.version), message: p.message }),
    }];
  }
  return [];
}

/** Writes the platform events of an accepted accounts event to the outbox (same transaction). */
export async function recordPlatformFacts(c: PoolClient, rec: IncomingRecord, e: DecodedEvent): Promise<number> {
  const facts = await factsOf(c, e);
  for (const [i, f] of facts.entries()) {
    // One fact per record today; a second one would take the next derived id.
    const eventId = i === 0 ? derivedEventId(rec.topic, rec.partition, rec.offset) : derivedEventId(`${rec.topic}#${i}`, rec.partition, rec.offset);
    const record = encodeEvent('platform.event.recorded', {
      event_type: f.eventType, request_type: 'unknown', status_code: '', status_message: '',
      attributes_json: JSON.stringify(f.attributes), user_id: e.actorId,
    }, { eventId, projectId: e.projectId, organizationId: e.organizationId, requestId: e.requestId, actorId: e.actorId, timeUs: e.timeUs });
    await c.query('INSERT INTO platform_outbox (event_id, project_id, record) VALUES ($1::uuid, $2::uuid, $3) ON CONFLICT (event_id) DO NOTHING', [eventId, e.projectId, record]);
  }
  return facts.length;
}
