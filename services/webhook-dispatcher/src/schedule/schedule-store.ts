// The schedule's queries (webhook_dispatch_tasks, webhook-dispatcher-0001-schedule.sql). Claims are
// leases taken with FOR UPDATE SKIP LOCKED, so several dispatcher replicas share one schedule
// without handing a row to two of them; a lease that runs out (its process died) makes the row
// claimable again. Every write after a claim is conditional on still holding the lease.
import type { Pool } from '@llm/postgres';
import type { StoredRequest } from './stored-request.ts';

export interface Task {
  deliveryId: string;
  projectId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  request: StoredRequest;
  /** Attempts made before this one. */
  attempts: number;
}

export interface ClaimLimits {
  /** Rows at most. */
  limit: number;
  /** Per subscription at most, less what this process already has in flight for it. */
  perSubscription: number;
  inFlight: ReadonlyMap<string, number>;
  leaseMs: number;
  owner: string;
}

export function scheduleStore(pool: Pool): {
  claim(l: ClaimLimits): Promise<Task[]>;
  nextDueInMs(inFlight: ReadonlyMap<string, number>, perSubscription: number): Promise<number | undefined>;
  complete(deliveryId: string, owner: string): Promise<void>;
  reschedule(deliveryId: string, owner: string, attempts: number, delayMs: number): Promise<void>;
} {
  // Subscriptions at their in-flight limit in this process are left out; the others get up to
  // `perSubscription - inFlight` rows each, oldest due first.
  const busy = (inFlight: ReadonlyMap<string, number>): [string[], number[]] => [[...inFlight.keys()], [...inFlight.values()]];
  return {
    async claim(l) {
      if (l.limit <= 0) return [];
      const [subs, counts] = busy(l.inFlight);
      const r = await pool.query<{
        delivery_id: string; project_id: string; subscription_id: string; event_id: string; event_type: string; request: StoredRequest; attempts: number;
      }>(
        `WITH candidates AS (
           SELECT x.delivery_id FROM (
             SELECT delivery_id, subscription_id, due_at,
                    row_number() OVER (PARTITION BY subscription_id ORDER BY due_at, delivery_id) AS rn
               FROM webhook_dispatch_tasks
              WHERE due_at <= now() AND (lease_until IS NULL OR lease_until < now())
           ) x LEFT JOIN unnest($1::uuid[], $2::int[]) AS f(subscription_id, n) ON f.subscription_id = x.subscription_id
            WHERE x.rn <= $3 - coalesce(f.n, 0)
            ORDER BY x.due_at LIMIT $4
         ), locked AS (
           SELECT t.delivery_id FROM webhook_dispatch_tasks t JOIN candidates USING (delivery_id)
            WHERE t.due_at <= now() AND (t.lease_until IS NULL OR t.lease_until < now())
              FOR UPDATE OF t SKIP LOCKED
         )
         UPDATE webhook_dispatch_tasks t SET lease_until = now() + $5 * interval '1 millisecond', lease_owner = $6
           FROM locked WHERE t.delivery_id = locked.delivery_id
         RETURNING t.delivery_id::text, t.project_id::text, t.subscription_id::text, t.event_id::text, t.event_type, t.request, t.attempts`,
        [subs, counts, l.perSubscription, l.limit, l.leaseMs, l.owner],
      );
      return r.rows.map((x) => ({
        deliveryId: x.delivery_id, projectId: x.project_id, subscriptionId: x.subscription_id, eventId: x.event_id,
        eventType: x.event_type, request: x.request, attempts: x.attempts,
      }));
    },
    async nextDueInMs(inFlight, perSubscription) {
      const full = [...inFlight].filter(([, n]) => n >= perSubscription).map(([s]) => s);
      const r = await pool.query<{ ms: string | null }>(
        `SELECT extract(epoch FROM (min(greatest(due_at, coalesce(lease_until, due_at))) - now())) * 1000 AS ms
           FROM webhook_dispatch_tasks WHERE subscription_id <> ALL($1::uuid[])`,
        [full],
      );
      const ms = r.rows[0]?.ms;
      return ms === null || ms === undefined ? undefined : Math.max(0, Number(ms));
    },
    async complete(deliveryId, owner) {
      await pool.query('DELETE FROM webhook_dispatch_tasks WHERE delivery_id = $1 AND lease_owner = $2', [deliveryId, owner]);
    },
    async reschedule(deliveryId, owner, attempts, delayMs) {
      await pool.query(
        `UPDATE webhook_dispatch_tasks SET attempts = $3, due_at = now() + $4 * interval '1 millisecond', lease_until = NULL, lease_owner = NULL
          WHERE delivery_id = $1 AND lease_owner = $2`,
        [deliveryId, owner, attempts, Math.max(0, Math.round(delayMs))],
      );
    },
  };
}
