// The outcome of the command's own appended events (read-your-writes), for the routes not yet on
// AccountCommands.appendAndAwait (issue 11: this file goes with its last user).
import type { Pool } from '@llm/postgres';
import { AppError, sleep } from '@llm/errors';

export type EventOutcome = { status: 'applied' } | { status: 'rejected'; reason: string } | { status: 'timeout' };

/**
 * Waits (bounded) until the accounts projector recorded the event, and returns its outcome. An event
 * the store could not hold (rejection code `unstorable`) is the request's fault whatever the route:
 * it is answered 422 here, naming the store's reason.
 */
export async function waitForEvent(pool: Pool, eventId: string, timeoutMs = 10_000): Promise<EventOutcome> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; Date.now() < deadline; i++) {
    const r = await pool.query<{ status: 'applied' | 'rejected'; rejection: string | null; rejection_code: string | null }>(
      'SELECT status, rejection, rejection_code FROM events WHERE event_id = $1', [eventId]);
    const row = r.rows[0];
    if (row?.rejection_code === 'unstorable') {
      throw new AppError({ code: 'unstorable_input', kind: 'unprocessable', message: `The change cannot be stored: ${row.rejection ?? 'refused by the store'}` });
    }
    if (row) return row.status === 'applied' ? { status: 'applied' } : { status: 'rejected', reason: row.rejection ?? 'rejected' };
    await sleep(Math.min(5 * 2 ** i, 50));
  }
  return { status: 'timeout' };
}
