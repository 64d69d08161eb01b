// The usage meters' batch sinks on the real Postgres. Traces: distinct new trace ids per
// organization, project, user and UTC day of the event (a record whose spans all name a parent
// counts as well as one with its root; a trace already counted does not count again, in this batch
// or a later one, until TRACE_SEEN_DAYS have passed); records naming no organization resolved
// through their project (or dropped with the project); re-driven records not counted again; a
// non-UUID project set aside. Platform events: one `events_ingested` per stored event, and the
// distinct traces of each read event as the reader's `traces_retrieved`.
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { openFreshDatabase, type FreshDatabase } from '@llm/testing/fresh-database';
import { encodeEvent, decodeEvent, type SpanUsage } from '@llm/events';
import type { IncomingRecord } from '@llm/kafka';
import { withTransaction, type Pool } from '@llm/postgres';
import { REDRIVE_MIN_AGE_MS, TRACE_SEEN_DAYS, usageSink } from '../src/consumer/usage-sink.ts';
import { eventsUsageSink } from '../src/consumer/events-usage-sink.ts';
import { platformUsage } from '../src/domain/platform-usage.ts';

let db: FreshDatabase;
let pool: Pool;
beforeAll(async () => {
  db = await openFreshDatabase(inject('databaseUrl'), [path.resolve(import.meta.dirname, '../migrations')], { prefix: 'usage' });
  pool = db.pool;
});
afterAll(async () => { await db?.close(); });

const T = Date.UTC(2026, 10, 24, 23, 59, 59);
const DAY = 86_400_000;
const hex = (): string => randomBytes(16).toString('hex');
const rec = (appendedMs = T): IncomingRecord => ({ topic: 't', partition: 0, offset: 0n, key: null, value: null, timestampMs: appendedMs });
const usage = (o: Partial<SpanUsage>): SpanUsage =>
  ({ type: 'tracing.spans.upserted', projectId: randomUUID(), organizationId: randomUUID(), actorId: 'u1', timeUs: T * 1000, traceId: hex(), spans: 1, ...o });
const meters = async (org: string, meter = 'traces_ingested') => (await pool.query(
  `SELECT project_id::text AS p, user_id AS u, day::text AS day, value::int AS v FROM usage_daily WHERE organization_id = $1 AND meter = $2 ORDER BY day, p, u`, [org, meter])).rows;
const write = async (sink: { write(c: never): Promise<void> }) => { await withTransaction(pool, (c) => sink.write(c as never)); };

describe('traces usage sink (Postgres)', () => {
  it('counts distinct trace ids per organization, project, user and day, resolves missing organizations, skips re-drives', async () => {
    const [org, p1, p2, orphan] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const [a, b, c, d, e] = [hex(), hex(), hex(), hex(), hex()];
    const known = new Map<string, string>([[p2, org]]);
    const sink = usageSink({ organizationOf: async (_c, project) => known.get(project) });
    const verdicts = [
      sink.add(usage({ organizationId: org, projectId: p1, traceId: a, spans: 3 }), rec()),
      sink.add(usage({ organizationId: org.toUpperCase(), projectId: p1, traceId: a, spans: 2 }), rec()),          // same trace: once
      sink.add(usage({ organizationId: org, projectId: p1, traceId: b, actorId: 'u2' }), rec()),                   // another user
      sink.add(usage({ organizationId: org, projectId: p1, traceId: c, timeUs: (T + 1000) * 1000 }), rec(T + 1000)), // next UTC day
      sink.add(usage({ organizationId: '', projectId: p2, traceId: a }), rec()),                                   // same id, other project: another trace
      sink.add(usage({ organizationId: '', projectId: orphan, traceId: d }), rec()),                               // project gone: nobody to meter
      sink.add(usage({ organizationId: org, projectId: p1, traceId: e }), rec(T + REDRIVE_MIN_AGE_MS + 1)),       // a re-drive
      sink.add(usage({ organizationId: org, projectId: p1, traceId: e, spans: 0, type: 'tracing.trace.deleted' }), rec()),
      sink.add(usage({ projectId: 'not-a-uuid' }), rec()),
    ];
    expect(verdicts.map((v) => v.ok)).toEqual([true, true, true, true, true, true, true, true, false]);
    await write(sink);
    expect(await meters(org)).toEqual([
      ...[{ p: p1, u: 'u1', day: '2026-11-24', v: 1 }, { p: p1, u: 'u2', day: '2026-11-24', v: 1 }, { p: p2, u: 'u1', day: '2026-11-24', v: 1 }]
        .sort((x, y) => x.p.localeCompare(y.p) || x.u.localeCompare(y.u)),
      { p: p1, u: 'u1', day: '2026-11-25', v: 1 },
    ]);
    // A later batch: spans of traces already counted bring nothing; a new trace (here without a root) counts.
    const again = usageSink({ organizationOf: async () => undefined });
    again.add(usage({ organizationId: org, projectId: p1, traceId: a, spans: 10 }), rec());
    again.add(usage({ organizationId: org, projectId: p1, traceId: b }), rec());
    again.add(usage({ organizationId: org, projectId: p1, traceId: hex() }), rec());
    await write(again);
    expect((await meters(org)).find((r) => r.p === p1 && r.u === 'u1' && r.day === '2026-11-24')).toEqual({ p: p1, u: 'u1', day: '2026-11-24', v: 2 });
  });

  it('when a trace keeps receiving spans TRACE_SEEN_DAYS after it counted, then it counts again, once', async () => {
    const [org, p] = [randomUUID(), randomUUID()];
    const id = hex();
    const later = T + TRACE_SEEN_DAYS * DAY;
    for (const [at, appended] of [[T, T], [T + (TRACE_SEEN_DAYS - 1) * DAY, T + (TRACE_SEEN_DAYS - 1) * DAY], [later, later], [later + DAY, later + DAY]] as const) {
      const sink = usageSink({ organizationOf: async () => undefined });
      sink.add(usage({ organizationId: org, projectId: p, traceId: id, timeUs: at * 1000 }), rec(appended));
      await write(sink);
    }
    expect((await meters(org)).map((r) => [r.day, r.v])).toEqual([['2026-11-24', 1], ['2026-12-25', 1]]);
  });
});

const platformRecord = (o: { project: string; org: string; user: string; type: string; attributes: Record<string, unknown>; atMs?: number }) => {
  const d = decodeEvent(encodeEvent('platform.event.recorded', {
    event_type: o.type, request_type: 'unknown', status_code: '', status_message: '', attributes_json: JSON.stringify({ user_id: o.user, ...o.attributes }), user_id: o.user,
  }, { eventId: randomUUID(), projectId: o.project, organizationId: o.org, requestId: 'r', actorId: o.user, timeUs: (o.atMs ?? T) * 1000 }));
  if (!d.ok) throw new Error(d.error);
  return platformUsage(d.value);
};

describe('platform events usage sink (Postgres)', () => {
  it('meters every stored event and the distinct traces of each read event, per reader', async () => {
    const [org, p] = [randomUUID(), randomUUID()];
    const [u1, u2] = [randomUUID(), randomUUID()];
    const [a, b] = [hex(), hex()];
    const sink = eventsUsageSink({ organizationOf: async () => org });
    const records = [
      platformRecord({ project: p, org, user: u1, type: 'traces.fetched', attributes: { count: 1, trace_id: a } }),
      platformRecord({ project: p, org, user: u1, type: 'traces.queried', attributes: { count: 5, trace_ids: [a, b, a] } }),
      platformRecord({ project: p, org: '', user: u2, type: 'traces.fetched', attributes: { count: 2, trace_ids: [a, b] } }),
      platformRecord({ project: p, org, user: u2, type: 'queries.revisions.committed', attributes: {} }),
      platformRecord({ project: p, org, user: u2, type: 'traces.fetched', attributes: { trace_id: a }, atMs: T - REDRIVE_MIN_AGE_MS - 1 }), // a re-drive
    ];
    for (const r of records) expect(sink.add(r, rec()).ok).toBe(true);
    expect(sink.add(undefined, rec()).ok).toBe(true);
    await write(sink);
    expect(await meters(org, 'events_ingested')).toEqual([{ p, u: u1, day: '2026-11-24', v: 2 }, { p, u: u2, day: '2026-11-24', v: 2 }].sort((x, y) => x.u.localeCompare(y.u)));
    expect(await meters(org, 'traces_retrieved')).toEqual([{ p, u: u1, day: '2026-11-24', v: 3 }, { p, u: u2, day: '2026-11-24', v: 2 }].sort((x, y) => x.u.localeCompare(y.u)));
  });

  it('a record the events log does not store is no usage', () => {
    expect(platformRecord({ project: 'not-a-uuid', org: randomUUID(), user: 'u', type: 'traces.fetched', attributes: { trace_id: hex() } })).toBeUndefined();
    const d = decodeEvent(encodeEvent('platform.event.recorded', { event_type: 'x', request_type: 'unknown', status_code: '', status_message: '', attributes_json: '[1]', user_id: '' },
      { eventId: randomUUID(), projectId: randomUUID(), organizationId: '', requestId: 'r', actorId: '', timeUs: T * 1000 }));
    expect(d.ok && platformUsage(d.value)).toBeUndefined();
  });
});
