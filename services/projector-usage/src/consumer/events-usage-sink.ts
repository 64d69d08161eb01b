// Meters one batch of platform.events.v1 records into usage_daily: `events_ingested` (one per stored
// event) and `traces_retrieved` (distinct traces per read event), per organization, project, user
// and UTC day of the event. One statement per batch, in the transaction of the batch's offsets.
import type { BatchSink, RecordVerdict } from '@llm/pg-consumer';
import type { PoolClient } from '@llm/postgres';
import { dayOf } from '@llm/quota';
import type { PlatformUsage } from '../domain/platform-usage.ts';
import { REDRIVE_MIN_AGE_MS, type ProjectOrganizations } from './usage-sink.ts';

const OK: RecordVerdict = { ok: true };

interface Row { org: string; project: string; user: string; meter: string; day: string; value: number }

export function eventsUsageSink(orgs: ProjectOrganizations): BatchSink<PlatformUsage | undefined> {
  const sums = new Map<string, Row>();
  const unknownOrg: Array<Omit<Row, 'org'>> = [];
  const bump = (r: Row): void => {
    const key = `${r.org}|${r.project}|${r.user}|${r.meter}|${r.day}`;
    const s = sums.get(key);
    if (s) s.value += r.value;
    else sums.set(key, { ...r });
  };
  const meter = (u: PlatformUsage, m: string, value: number): void => {
    const row = { project: u.projectId, user: u.userId, meter: m, day: dayOf(new Date(Math.floor(u.timeUs / 1000))), value };
    if (u.organizationId) bump({ org: u.organizationId, ...row });
    else unknownOrg.push(row);
  };
  return {
    add(u, rec) {
      if (!u) return OK;
      // A re-drive (or a republished outbox record) was metered when it was first appended.
      if (rec.timestampMs > 0 && rec.timestampMs - u.timeUs / 1000 > REDRIVE_MIN_AGE_MS) return OK;
      meter(u, 'events_ingested', 1);
      if (u.tracesRetrieved > 0) meter(u, 'traces_retrieved', u.tracesRetrieved);
      return OK;
    },
    async write(c: PoolClient) {
      const resolved = new Map<string, string | undefined>();
      for (const x of unknownOrg) {
        if (!resolved.has(x.project)) resolved.set(x.project, await orgs.organizationOf(c, x.project));
        const org = resolved.get(x.project);
        // A project that no longer exists (its organization deleted): nobody to meter.
        if (org) bump({ org: org.toLowerCase(), ...x });
      }
      if (sums.size === 0) return;
      const rows = [...sums.values()];
      await c.query(
        `INSERT INTO usage_daily (organization_id, project_id, user_id, meter, day, value)
         SELECT o, p, u, m, d, v FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::date[], $6::bigint[]) AS t(o, p, u, m, d, v)
         ON CONFLICT (organization_id, meter, day, project_id, user_id) DO UPDATE SET value = usage_daily.value + EXCLUDED.value`,
        [rows.map((r) => r.org), rows.map((r) => r.project), rows.map((r) => r.user), rows.map((r) => r.meter), rows.map((r) => r.day), rows.map((r) => r.value)],
      );
    },
  };
}
