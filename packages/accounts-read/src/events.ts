// The one reader of the event log's outcomes (events table, written by projector-accounts): what
// became of an appended event — applied, or rejected with its typed code.
import { isRejectionCode, type Queryable, type Rejection, type RejectionCode } from '@llm/account-model';

export type EventOutcome = { status: 'applied' } | Rejection<RejectionCode>;

/** The recorded outcome of an event, or undefined while the projector has not reached it. */
export async function readEventOutcome(q: Queryable, eventId: string): Promise<EventOutcome | undefined> {
  const r = await q.query<{ status: 'applied' | 'rejected'; rejection: string | null; rejection_code: string | null; rejection_details: Record<string, unknown> | null }>(
    'SELECT status, rejection, rejection_code, rejection_details FROM events WHERE event_id = $1', [eventId]);
  const row = r.rows[0];
  if (!row) return undefined;
  if (row.status === 'applied') return { status: 'applied' };
  // Rows recorded before every rejection had a code (migration 0009) read as malformed_event; a
  // command only ever waits on events this projector records, which always carry one.
  const code: RejectionCode = row.rejection_code !== null && isRejectionCode(row.rejection_code) ? row.rejection_code : 'malformed_event';
  return { status: 'rejected', code, message: row.rejection ?? 'rejected', ...(row.rejection_details ? { details: row.rejection_details } : {}) };
}
