// Meters one batch of spans records into usage_daily: `traces_ingested` += the traces the
// organization did not have before (issue 24: distinct trace ids, whether or not a record holds a
// root span), per organization, project, user and UTC day of the event (the time the command
// accepted it, so admission and meter agree on the period). A trace counts on the day of its first
// record, and again only when a record comes TRACE_SEEN_DAYS or more after the day it last counted
// (a trace that keeps receiving spans for months). The first-seen set (usage_traces_seen) is written
// in the same transaction as usage_daily and the offsets, so a replay rebuilds the same numbers.
// Two statements per batch, whatever its size.
import { isUuid } from '@llm/account-model';
import type { SpanUsage } from '@llm/events';
import type { BatchSink, RecordVerdict } from '@llm/pg-consumer';
import type { PoolClient } from '@llm/postgres';
import { dayOf } from '@llm/quota';

const OK: RecordVerdict = { ok: true };

/**
 * A record appended this long after its event time is a re-drive (`npm run redrive` appends dead
 * letters again with their original bytes, event time included): the meters counted it when it
 * was first appended, so it brings nothing now. Nothing else appends so late: a producer gives up
 * (and the client gets a 503) long before.
 */
export const REDRIVE_MIN_AGE_MS = 30 * 60_000;
/** A trace counts again when a record comes this many days after the day it last counted. */
export const TRACE_SEEN_DAYS = 31;
/**
 * First-seen rows are deleted this many days after they stopped deciding anything: more than the
 * days between the partitions' positions (each trace lives on one partition, but the deletion is
 * table-wide), which the spans topic's retention bounds on a replay (7 days by default).
 */
export const TRACE_SEEN_MARGIN_DAYS = 31;
/** Rows deleted per batch at most (the horizon moves a day at a time; batches catch up). Rows another
 * partition's batch is deleting are skipped, so concurrent batches never wait on each other. */
const SWEEP_ROWS = 5000;

export interface ProjectOrganizations {
  /** The organization of a project (records written before envelopes carried it). */
  organizationOf(c: PoolClient, projectId: string): Promise<string | undefined>;
}

interface Sighting { org: string; project: string; user: string; trace: string; day: string }

const DAY_MS = 86_400_000;

export function usageSink(orgs: ProjectOrganizations): BatchSink<SpanUsage> {
  const seen: Sighting[] = [];
  const unknownOrg: Array<Omit<Sighting, 'org'>> = [];
  let firstDay: string | undefined;
  return {
    add(u, rec) {
      if (u.spans === 0) return OK;
      if (rec.timestampMs > 0 && rec.timestampMs - u.timeUs / 1000 > REDRIVE_MIN_AGE_MS) return OK;
      if (!isUuid(u.projectId)) return { ok: false, error: `project id '${u.projectId}' is not a UUID` };
      const day = dayOf(new Date(Math.floor(u.timeUs / 1000)));
      if (firstDay === undefined || day < firstDay) firstDay = day;
      const s = { project: u.projectId.toLowerCase(), user: u.actorId, trace: u.traceId, day };
      if (!isUuid(u.organizationId)) unknownOrg.push(s);
      else seen.push({ org: u.organizationId.toLowerCase(), ...s });
      return OK;
    },
    async write(c: PoolClient) {
      for (const x of unknownOrg) {
        const org = await orgs.organizationOf(c, x.project);
        // A project that no longer exists (its organization deleted): nobody to meter.
        if (org) seen.push({ org: org.toLowerCase(), ...x });
      }
      if (seen.length === 0) return;
      // Trace ids are 32 hex (a UUID's 128 bits); anything else (records of older writers) by its hash.
      // One row per trace: its earliest record of the batch decides (a batch never spans TRACE_SEEN_DAYS).
      await c.query(
        `WITH input AS (
           SELECT o, p, u, CASE WHEN tr ~ '^[0-9a-fA-F]{32}$' THEN tr::uuid ELSE md5(tr)::uuid END AS tid, d
             FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::date[]) AS t(o, p, u, tr, d)
         ), traces AS (
           SELECT DISTINCT ON (p, tid) o, p, u, tid, d FROM input ORDER BY p, tid, d
         ), counted AS (
           INSERT INTO usage_traces_seen AS s (project_id, trace_id, counted_on)
           SELECT p, tid, d FROM traces
           ON CONFLICT (project_id, trace_id) DO UPDATE SET counted_on = EXCLUDED.counted_on
             WHERE s.counted_on <= EXCLUDED.counted_on - $6::int
           RETURNING project_id, trace_id
         )
         INSERT INTO usage_daily (organization_id, project_id, user_id, meter, day, value)
         SELECT t.o, t.p, t.u, 'traces_ingested', t.d, count(*) FROM counted c JOIN traces t ON t.p = c.project_id AND t.tid = c.trace_id
          GROUP BY t.o, t.p, t.u, t.d
         ON CONFLICT (organization_id, meter, day, project_id, user_id) DO UPDATE SET value = usage_daily.value + EXCLUDED.value`,
        [seen.map((s) => s.org), seen.map((s) => s.project), seen.map((s) => s.user), seen.map((s) => s.trace), seen.map((s) => s.day), TRACE_SEEN_DAYS],
      );
      if (firstDay) {
        const horizon = dayOf(new Date(Date.parse(`${firstDay}T00:00:00Z`) - (TRACE_SEEN_DAYS + TRACE_SEEN_MARGIN_DAYS) * DAY_MS));
        // In counted_on order, so the plan is a walk of its index that stops at the horizon whatever
        // the statistics say: without it, a table not yet analysed was read whole on every batch
        // (bench:ingest: 1,848 sequential scans, 34 M rows read in 60 s; Postgres 66 µs per span).
        await c.query(
          `DELETE FROM usage_traces_seen WHERE ctid IN (SELECT ctid FROM usage_traces_seen WHERE counted_on < $1::date ORDER BY counted_on LIMIT ${SWEEP_ROWS} FOR UPDATE SKIP LOCKED)`, [horizon]);
      }
    },
  };
}
