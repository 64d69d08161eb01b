// The schedule's queries (webhook_dispatch_tasks, webhook-dispatcher-0001/0002 migrations). Claims
// are leases taken with FOR UPDATE SKIP LOCKED, so several dispatcher replicas share one schedule
// without handing a row to two of them; a lease that runs out (its process died) makes the row
// claimable again. Every write after a claim is conditional on still holding the lease.
// The claim stays cheap with a large due backlog: it probes the (subscription_id, due_at) index per
// subscription (see SUBSCRIPTIONS) instead of ranking every due row.
import type { Pool } from '@llm/postgres';
import type { WebhookEventFact } from '@llm/webhooks';
import type { StoredRequest } from './stored-request.ts';

/** A delivery that ends without being sent (its request could not be prepared or stored). */
export interface TaskFailure { code: string; error: string; url: string }

export interface Task {
  deliveryId: string;
  projectId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  /** Null when `failure` says why there is nothing to send. */
  request: StoredRequest | null;
  /** Attempts made before this one. */
  attempts: number;
  /** Tries that neither sent nor recorded anything (see the 0002 migration). */
  stalls: number;
  lastError: string | null;
  failure: TaskFailure | null;
  /** The subscription version the request was built from (null: scheduled before 0002). */
  subscriptionVersion: number | null;
  /** The event as the subscriber sees it (null: scheduled before 0002). */
  event: WebhookEventFact | null;
  /** Local clock (ms) before which this process surely still holds the lease. */
  leaseDeadline: number;
}

export interface ClaimLimits {
  /** Rows at most. */
  limit: number;
  /** Per subscription at most, less what this process already has in flight for it. */
  perSubscription: number;
  inFlight: ReadonlyMap<string, number>;
  /** Deliveries this process is still working on (never claimed again by it, even if their lease ran out). */
  exclude: Iterable<string>;
  leaseMs: number;
  owner: string;
}

/**
 * The subscriptions that have rows, found by skipping through the (subscription_id, due_at) index
 * (one probe per subscription, however many rows each has): the claim then takes, per subscription
 * with room, its oldest free due rows through the same index. So neither a large due backlog nor a
 * subscription at its limit with thousands of due rows (a dead receiver) makes a claim scan them.
 */
const SUBSCRIPTIONS = `subs AS (
  (SELECT subscription_id FROM webhook_dispatch_tasks ORDER BY subscription_id LIMIT 1)
  UNION ALL
  SELECT (SELECT t.subscription_id FROM webhook_dispatch_tasks t WHERE t.subscription_id > s.subscription_id ORDER BY t.subscription_id LIMIT 1)
    FROM subs s WHERE s.subscription_id IS NOT NULL
)`;

interface TaskRow {
  delivery_id: string; project_id: string; subscription_id: string; event_id: string; event_type: string; request: StoredRequest | null;
  attempts: number; stalls: number; last_error: string | null; failure: TaskFailure | null; subscription_version: number | null; event: string | null;
}

export function scheduleStore(pool: Pool): {
  claim(l: ClaimLimits): Promise<Task[]>;
  nextDueInMs(inFlight: ReadonlyMap<string, number>, perSubscription: number): Promise<number | undefined>;
  complete(deliveryId: string, owner: string): Promise<void>;
  reschedule(deliveryId: string, owner: string, attempts: number, delayMs: number): Promise<void>;
  stall(deliveryId: string, owner: string, stalls: number, error: string, delayMs: number): Promise<void>;
  renew(deliveryId: string, owner: string, leaseMs: number): Promise<boolean>;
} {
  // Subscriptions at their in-flight limit in this process are left out; the others get up to
  // `perSubscription - inFlight` rows each, oldest due first.
  const busy = (inFlight: ReadonlyMap<string, number>): [string[], number[]] => [[...inFlight.keys()], [...inFlight.values()]];
  return {
    async claim(l) {
      if (l.limit <= 0) return [];
      const [subs, counts] = busy(l.inFlight);
      const claimedAt = Date.now();
      const r = await pool.query<TaskRow>(
        `WITH RECURSIVE ${SUBSCRIPTIONS}, room AS (
           SELECT s.subscription_id, $3 - coalesce(f.n, 0) AS n
             FROM subs s LEFT JOIN unnest($1::uuid[], $2::int[]) AS f(subscription_id, n) ON f.subscription_id = s.subscription_id
            WHERE s.subscription_id IS NOT NULL AND $3 - coalesce(f.n, 0) > 0
         ), candidates AS (
           SELECT c.delivery_id FROM room r CROSS JOIN LATERAL (
             SELECT t.delivery_id, t.due_at FROM webhook_dispatch_tasks t
              WHERE t.subscription_id = r.subscription_id AND t.due_at <= now() AND (t.lease_until IS NULL OR t.lease_until < now())
                AND t.delivery_id <> ALL($7::uuid[])
              ORDER BY t.due_at LIMIT r.n
           ) c ORDER BY c.due_at LIMIT $4
         ), locked AS (
           SELECT t.delivery_id FROM webhook_dispatch_tasks t JOIN candidates USING (delivery_id)
            WHERE t.due_at <= now() AND (t.lease_until IS NULL OR t.lease_until < now())
              FOR UPDATE OF t SKIP LOCKED
         )
         UPDATE webhook_dispatch_tasks t SET lease_until = now() + $5 * interval '1 millisecond', lease_owner = $6
           FROM locked WHERE t.delivery_id = locked.delivery_id
         RETURNING t.delivery_id::text, t.project_id::text, t.subscription_id::text, t.event_id::text, t.event_type, t.request, t.attempts,
                   t.stalls, t.last_error, t.failure, t.subscription_version, t.event`,
        [subs, counts, l.perSubscription, l.limit, l.leaseMs, l.owner, [...l.exclude]],
      );
      return r.rows.map((x) => ({
        deliveryId: x.delivery_id, projectId: x.project_id, subscriptionId: x.subscription_id, eventId: x.event_id,
        eventType: x.event_type, request: x.request, attempts: x.attempts, stalls: x.stalls, lastError: x.last_error,
        failure: x.failure, subscriptionVersion: x.subscription_version, event: x.event === null ? null : JSON.parse(x.event) as WebhookEventFact, leaseDeadline: claimedAt + l.leaseMs,
      }));
    },
    async nextDueInMs(inFlight, perSubscription) {
      const full = [...inFlight].filter(([, n]) => n >= perSubscription).map(([s]) => s);
      // Per subscription not at its limit here, its first free row (index probes, see SUBSCRIPTIONS);
      // and the first lease to run out (the leased rows are few; partial index on lease_until).
      const r = await pool.query<{ ms: string | null }>(
        `WITH RECURSIVE ${SUBSCRIPTIONS}
         SELECT extract(epoch FROM (least(
            (SELECT min(c.due_at) FROM subs s CROSS JOIN LATERAL (
               SELECT t.due_at FROM webhook_dispatch_tasks t
                WHERE t.subscription_id = s.subscription_id AND (t.lease_until IS NULL OR t.lease_until < now())
                ORDER BY t.due_at LIMIT 1) c
              WHERE s.subscription_id IS NOT NULL AND s.subscription_id <> ALL($1::uuid[])),
            (SELECT min(greatest(due_at, lease_until)) FROM webhook_dispatch_tasks WHERE lease_until >= now() AND subscription_id <> ALL($1::uuid[]))
          ) - now())) * 1000 AS ms`,
        [full],
      );
      const ms = r.rows[0]?.ms;
      return ms === null || ms === undefined ? undefined : Math.max(0, Number(ms));
    },
    async complete(deliveryId, owner) {
      await pool.query('DELETE FROM webhook_dispatch_tasks WHERE delivery_id = $1 AND lease_owner = $2', [deliveryId, owner]);
    },
    /** An attempt was made and recorded: the next one is due after `delayMs` (and the stalls start over). */
    async reschedule(deliveryId, owner, attempts, delayMs) {
      await pool.query(
        `UPDATE webhook_dispatch_tasks SET attempts = $3, stalls = 0, last_error = NULL, due_at = now() + $4 * interval '1 millisecond', lease_until = NULL, lease_owner = NULL
          WHERE delivery_id = $1 AND lease_owner = $2`,
        [deliveryId, owner, attempts, Math.max(0, Math.round(delayMs))],
      );
    },
    /** A try that recorded nothing: counted, and tried again after `delayMs`. */
    async stall(deliveryId, owner, stalls, error, delayMs) {
      await pool.query(
        `UPDATE webhook_dispatch_tasks SET stalls = $3, last_error = $4, due_at = now() + $5 * interval '1 millisecond', lease_until = NULL, lease_owner = NULL
          WHERE delivery_id = $1 AND lease_owner = $2`,
        [deliveryId, owner, stalls, error.slice(0, 2000), Math.max(0, Math.round(delayMs))],
      );
    },
    /** Extends the lease; false when this process no longer holds it. */
    async renew(deliveryId, owner, leaseMs) {
      const r = await pool.query(
        `UPDATE webhook_dispatch_tasks SET lease_until = now() + $3 * interval '1 millisecond' WHERE delivery_id = $1 AND lease_owner = $2`,
        [deliveryId, owner, leaseMs],
      );
      return (r.rowCount ?? 0) > 0;
    },
  };
}
