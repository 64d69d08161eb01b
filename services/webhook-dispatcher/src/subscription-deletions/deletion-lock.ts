// Why a lock: a subscription's deletion (deletions-consumer.ts, on the accounts topic) and a record of
// one of its deliveries (deliveries-projector/apply-record.ts, on the deliveries topic) are applied by
// two consumers in two concurrent transactions. Under READ COMMITTED each reads only what was
// committed before its statement: the record's transaction can find no tombstone (the deletion is
// not committed yet) and insert the delivery, while the deletion's DELETE cannot see that insert
// (not committed yet) — both commit and the deleted subscription keeps a delivery. Live, the
// deletion usually comes long after the records; in a rebuild both consumers start at offset 0 at
// once and the result depended on their interleaving.
//
// So both take this transaction-scoped advisory lock before they read or write what the other
// writes: the record shared (records never wait for each other), the deletion exclusive. Whichever
// commits first, the other's next statement sees it: a record applied first is removed by the
// deletion; a record applied after finds the tombstone. One key for every subscription (deletions
// are rare): each transaction takes only this lock, so the two can never deadlock on it.

import type { PoolClient } from '@llm/postgres';

/** pg_advisory_xact_lock key ("whdelsub" as an int64). */
export const SUBSCRIPTION_DELETION_LOCK = 0x776864656c737562n;

/** Taken by a delivery record before it looks for its subscription's tombstone. */
export async function lockAgainstDeletions(c: PoolClient): Promise<void> {
  await c.query('SELECT pg_advisory_xact_lock_shared($1)', [SUBSCRIPTION_DELETION_LOCK.toString()]);
}

/** Taken by a deletion before it writes the tombstone and removes the deliveries. */
export async function lockForDeletion(c: PoolClient): Promise<void> {
  await c.query('SELECT pg_advisory_xact_lock($1)', [SUBSCRIPTION_DELETION_LOCK.toString()]);
}
