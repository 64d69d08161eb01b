// The usage meters' batch sink on the real Postgres: root spans summed per organization, project
// and UTC day of the event; records naming no organization resolved through their project (or
// dropped with the project); re-driven records (appended long after their event time) not counted
// again; a non-UUID project set aside.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { openFreshDatabase, type FreshDatabase } from '@llm/testing/fresh-database';
import type { SpanUsage } from '@llm/events';
import type { IncomingRecord } from '@llm/kafka';
import { withTransaction, type Pool } from '@llm/postgres';
import { REDRIVE_MIN_AGE_MS, usageSink } from '../src/consumer/usage-sink.ts';

let db: FreshDatabase;
let pool: Pool;
beforeAll(async () => {
  db = await openFreshDatabase(inject('databaseUrl'), [path.resolve(import.meta.dirname, '../migrations')], { prefix: 'usage' });
  pool = db.pool;
});
afterAll(async () => { await db?.close(); });

const T = Date.UTC(2026, 10, 24, 23, 59, 59);
const rec = (appendedMs = T): IncomingRecord => ({ topic: 't', partition: 0, offset: 0n, key: null, value: null, timestampMs: appendedMs });
const usage = (o: Partial<SpanUsage>): SpanUsage => ({ type: 'tracing.spans.upserted', projectId: randomUUID(), organizationId: randomUUID(), timeUs: T * 1000, rootSpans: 1, ...o });

describe('usage sink (Postgres)', () => {
  it('sums root spans per organization, project and day, resolves missing organizations, skips re-drives', async () => {
    const [org, p1, p2, orphan] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const known = new Map<string, string>([[p2, org]]);
    const sink = usageSink({ organizationOf: async (_c, project) => known.get(project) });
    const verdicts = [
      sink.add(usage({ organizationId: org, projectId: p1, rootSpans: 3 }), rec()),
      sink.add(usage({ organizationId: org.toUpperCase(), projectId: p1, rootSpans: 2 }), rec()),
      sink.add(usage({ organizationId: org, projectId: p1, rootSpans: 4, timeUs: (T + 1000) * 1000 }), rec(T + 1000)), // next UTC day
      sink.add(usage({ organizationId: '', projectId: p2, rootSpans: 5 }), rec()),                                     // resolved through its project
      sink.add(usage({ organizationId: '', projectId: orphan, rootSpans: 6 }), rec()),                                 // project gone: nobody to meter
      sink.add(usage({ organizationId: org, projectId: p1, rootSpans: 7 }), rec(T + REDRIVE_MIN_AGE_MS + 1)),         // a re-drive
      sink.add(usage({ organizationId: org, projectId: p1, rootSpans: 0, type: 'tracing.trace.deleted' }), rec()),
      sink.add(usage({ projectId: 'not-a-uuid' }), rec()),
    ];
    expect(verdicts.map((v) => v.ok)).toEqual([true, true, true, true, true, true, true, false]);
    await withTransaction(pool, (c) => sink.write(c));
    const rows = (await pool.query(`SELECT project_id::text AS p, day::text AS day, value::int AS v FROM usage_daily WHERE organization_id = $1 ORDER BY day, p`, [org])).rows;
    expect(rows).toEqual([
      ...[{ p: p1, day: '2026-11-24', v: 5 }, { p: p2, day: '2026-11-24', v: 5 }].sort((a, b) => a.p.localeCompare(b.p)),
      { p: p1, day: '2026-11-25', v: 4 },
    ]);
    // A second batch adds to the same rows.
    const again = usageSink({ organizationOf: async () => undefined });
    again.add(usage({ organizationId: org, projectId: p1, rootSpans: 10 }), rec());
    await withTransaction(pool, (c) => again.write(c));
    expect((await pool.query(`SELECT value::int AS v FROM usage_daily WHERE organization_id = $1 AND project_id = $2 AND day = '2026-11-24'`, [org, p1])).rows).toEqual([{ v: 15 }]);
  });
});
