// Sums one batch of spans records into usage_daily: `traces_ingested` += the root spans each upsert
// or replacement brings, per organization, project and UTC day of the event (the time the command
// accepted it, so admission and meter agree on the period). One statement per batch.
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

export interface ProjectOrganizations {
  /** The organization of a project (records written before envelopes carried it). */
  organizationOf(c: PoolClient, projectId: string): Promise<string | undefined>;
}

export function usageSink(orgs: ProjectOrganizations): BatchSink<SpanUsage> {
  const sums = new Map<string, { org: string; project: string; day: string; value: number }>();
  const unknownOrg: Array<{ project: string; day: string; value: number }> = [];
  // One row per key in the batch's statement (ids compared as UUIDs are: any case).
  const bump = (organizationId: string, projectId: string, day: string, value: number): void => {
    const org = organizationId.toLowerCase();
    const project = projectId.toLowerCase();
    const key = `${org}|${project}|${day}`;
    const s = sums.get(key);
    if (s) s.value += value;
    else sums.set(key, { org, project, day, value });
  };
  return {
    add(u, rec) {
      if (u.rootSpans === 0) return OK;
      if (rec.timestampMs > 0 && rec.timestampMs - u.timeUs / 1000 > REDRIVE_MIN_AGE_MS) return OK;
      if (!isUuid(u.projectId)) return { ok: false, error: `project id '${u.projectId}' is not a UUID` };
      const day = dayOf(new Date(Math.floor(u.timeUs / 1000)));
      if (!isUuid(u.organizationId)) { unknownOrg.push({ project: u.projectId, day, value: u.rootSpans }); return OK; }
      bump(u.organizationId, u.projectId, day, u.rootSpans);
      return OK;
    },
    async write(c: PoolClient) {
      for (const x of unknownOrg) {
        const org = await orgs.organizationOf(c, x.project);
        // A project that no longer exists (its organization deleted): nobody to meter.
        if (!org) continue;
        bump(org, x.project, x.day, x.value);
      }
      if (sums.size === 0) return;
      const rows = [...sums.values()];
      await c.query(
        `INSERT INTO usage_daily (organization_id, project_id, meter, day, value)
         SELECT o, p, 'traces_ingested', d, v FROM unnest($1::uuid[], $2::uuid[], $3::date[], $4::bigint[]) AS t(o, p, d, v)
         ON CONFLICT (organization_id, meter, day, project_id) DO UPDATE SET value = usage_daily.value + EXCLUDED.value`,
        [rows.map((r) => r.org), rows.map((r) => r.project), rows.map((r) => r.day), rows.map((r) => r.value)],
      );
    },
  };
}
