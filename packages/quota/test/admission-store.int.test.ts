// The admission counter on the real Postgres: its SQL predicate agrees with `admits`, a period
// starts from the exact meter of that period only, concurrent reservations never take more than
// the predicate allows, a refund gives room back, traces are reserved by id (a new id costs one
// whether or not its root span is there, a known one nothing), and IngestAdmission fails open
// without Postgres.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { openFreshDatabase, type FreshDatabase } from '@llm/testing/fresh-database';
import { createPlanResolver, DEFAULT_PLANS, type PlanCatalog } from '@llm/access';
import type { Pool } from '@llm/postgres';
import { randomBytes } from 'node:crypto';
import { admits, IngestAdmission, postgresAdmissionStore, type Reservation, type TraceReservation } from '../src/index.ts';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../../services/projector-usage/migrations');
let db: FreshDatabase;
let pool: Pool;
beforeAll(async () => {
  db = await openFreshDatabase(inject('databaseUrl'), [MIGRATIONS], { prefix: 'quota' });
  pool = db.pool;
});
afterAll(async () => { await db?.close(); });

const range = { from: '2026-05-15', to: '2026-06-15' };
const res = (o: Partial<Reservation>): Reservation => ({ organizationId: randomUUID(), meter: 'traces_ingested', range, delta: 1, limit: 100, strict: true, ...o });

describe('admission counter (Postgres)', () => {
  it('the SQL predicate agrees with admits for strict and non-strict limits', async () => {
    const store = postgresAdmissionStore(pool);
    for (const strict of [true, false]) {
      for (const value of [0, 5, 9, 10, 11]) {
        for (const delta of [1, 2, 10, 11]) {
          const r = res({ strict, limit: 10, delta });
          await pool.query(`INSERT INTO quota_admissions (organization_id, meter, period_from, value) VALUES ($1, $2, $3, $4)`, [r.organizationId, r.meter, r.range.from, value]);
          const admitted = await store.reserve(r);
          expect({ strict, value, delta, admitted }).toEqual({ strict, value, delta, admitted: admits({ limit: 10, strict }, value, delta) });
        }
      }
    }
  });

  it('a new period starts from the exact meter of its own days only', async () => {
    const org = randomUUID();
    await pool.query(`INSERT INTO usage_daily (organization_id, project_id, meter, day, value) VALUES
      ($1, $2, 'traces_ingested', '2026-05-14', 1000), ($1, $2, 'traces_ingested', '2026-05-15', 60), ($1, $3, 'traces_ingested', '2026-06-14', 30),
      ($1, $2, 'traces_ingested', '2026-06-15', 1000), ($1, $2, 'other', '2026-05-20', 1000)`, [org, randomUUID(), randomUUID()]);
    const store = postgresAdmissionStore(pool);
    expect(await store.reserve(res({ organizationId: org, delta: 10 }))).toBe(true);  // 90 + 10 = 100
    expect(await store.reserve(res({ organizationId: org, delta: 1 }))).toBe(false);
  });

  it('when 200 reservations of 7 race for a strict 100, exactly 14 win; for a non-strict 100, exactly 15', async () => {
    const store = postgresAdmissionStore(pool);
    for (const [strict, winners] of [[true, 14], [false, 15]] as const) {
      const org = randomUUID();
      const wins = (await Promise.all(Array.from({ length: 200 }, () => store.reserve(res({ organizationId: org, delta: 7, strict }))))).filter(Boolean).length;
      expect(wins).toBe(winners);
    }
  });

  it('a refund gives its room back, never below zero', async () => {
    const store = postgresAdmissionStore(pool);
    const r = res({ delta: 100 });
    expect(await store.reserve(r)).toBe(true);
    expect(await store.reserve({ ...r, delta: 1 })).toBe(false);
    await store.refund(r);
    await store.refund(r);
    expect(await store.reserve({ ...r, delta: 100 })).toBe(true);
  });
});

const traceId = (): string => randomBytes(16).toString('hex');
const traces = (o: Partial<TraceReservation>): TraceReservation =>
  ({ organizationId: randomUUID(), projectId: randomUUID(), traceIds: [traceId()], range, limit: 10, strict: true, ...o });

describe('trace admission by id (Postgres)', () => {
  it('a new trace id costs one, a known one nothing, duplicates in a request once', async () => {
    const store = postgresAdmissionStore(pool);
    const r = traces({ traceIds: [] });
    const [a, b, c] = [traceId(), traceId(), traceId()];
    expect(await store.reserveTraces({ ...r, traceIds: [a, b, a] })).toMatchObject({ admitted: true, delta: 2 });
    expect(await store.reserveTraces({ ...r, traceIds: [a, b] })).toMatchObject({ admitted: true, delta: 0 });
    expect(await store.reserveTraces({ ...r, traceIds: [a.toUpperCase(), c] })).toMatchObject({ admitted: true, delta: 1 });
    // The same id in another project of the organization is another trace.
    expect(await store.reserveTraces({ ...r, projectId: randomUUID(), traceIds: [a] })).toMatchObject({ admitted: true, delta: 1 });
    expect((await pool.query(`SELECT value::int AS v FROM quota_admissions WHERE organization_id = $1`, [r.organizationId])).rows).toEqual([{ v: 4 }]);
  });

  it('given an organization at its limit, a request with any new trace is refused and remembers nothing; spans of known traces still pass', async () => {
    for (const strict of [true, false]) {
      const store = postgresAdmissionStore(pool);
      const r = traces({ limit: 3, strict, traceIds: [] });
      const known = [traceId(), traceId(), traceId()];
      expect(await store.reserveTraces({ ...r, traceIds: known })).toMatchObject({ admitted: true, delta: 3 });
      const fresh = traceId();
      expect(await store.reserveTraces({ ...r, traceIds: [known[0]!, fresh] })).toMatchObject({ admitted: false, delta: 1 });
      // Refused twice: the refused id was not remembered as seen.
      expect(await store.reserveTraces({ ...r, traceIds: [fresh] })).toMatchObject({ admitted: false, delta: 1 });
      expect(await store.reserveTraces({ ...r, traceIds: known })).toMatchObject({ admitted: true, delta: 0 });
    }
  });

  it('a refund forgets the ids it reserved and gives their room back', async () => {
    const store = postgresAdmissionStore(pool);
    const r = traces({ limit: 2, traceIds: [traceId(), traceId()] });
    const first = await store.reserveTraces(r);
    expect(first).toMatchObject({ admitted: true, delta: 2 });
    await store.refundTraces(r, first);
    expect(await store.reserveTraces(r)).toMatchObject({ admitted: true, delta: 2 });
  });

  it('a new period starts from the exact meter and forgets the ids of past periods', async () => {
    const store = postgresAdmissionStore(pool);
    const org = randomUUID();
    const project = randomUUID();
    const id = traceId();
    const may = { from: '2026-05-15', to: '2026-06-15' };
    const june = { from: '2026-06-15', to: '2026-07-15' };
    expect(await store.reserveTraces(traces({ organizationId: org, projectId: project, traceIds: [id], range: may }))).toMatchObject({ admitted: true, delta: 1 });
    await pool.query(`INSERT INTO usage_daily (organization_id, project_id, meter, day, value) VALUES ($1, $2, 'traces_ingested', '2026-06-20', 9)`, [org, project]);
    // June's counter starts from June's meter (9): the trace sent in May is new in June, and 9 + 1 = 10.
    expect(await store.reserveTraces(traces({ organizationId: org, projectId: project, traceIds: [id], range: june }))).toMatchObject({ admitted: true, delta: 1 });
    expect(await store.reserveTraces(traces({ organizationId: org, projectId: project, traceIds: [traceId()], range: june }))).toMatchObject({ admitted: false, delta: 1 });
    expect((await pool.query(`SELECT count(*)::int AS n FROM quota_traces_seen WHERE organization_id = $1 AND period_from < '2026-06-15'`, [org])).rows).toEqual([{ n: 0 }]);
  });

  it('when 40 requests of 5 new traces race for a strict 100, exactly 20 win', async () => {
    const store = postgresAdmissionStore(pool);
    const org = randomUUID();
    const project = randomUUID();
    const wins = (await Promise.all(Array.from({ length: 40 }, () =>
      store.reserveTraces(traces({ organizationId: org, projectId: project, limit: 100, traceIds: Array.from({ length: 5 }, traceId) }))))).filter((x) => x.admitted).length;
    expect(wins).toBe(20);
  });
});

const catalog: PlanCatalog = { ...DEFAULT_PLANS, tight: { counters: { traces_ingested: { limit: 20, strict: true, period: 'monthly' } } } };
const plans = (plan: string) => createPlanResolver({ read: async () => ({ plan, active: true, anchor: 1 }), defaultPlan: plan, ttlMs: 60_000 });

describe('ingest admission', () => {
  it('given a strict plan, admissions stop at the limit and a released one gives its room back', async () => {
    const a = new IngestAdmission({ plans: plans('tight'), catalog, store: postgresAdmissionStore(pool), refusalCacheMs: 0 });
    const org = randomUUID();
    const first = await a.admit(org, 'traces_ingested', 15);
    expect(first.admitted).toBe(true);
    expect((await a.admit(org, 'traces_ingested', 6)).admitted).toBe(false);
    if (first.admitted) first.release();
    await new Promise((r) => setTimeout(r, 100));
    expect((await a.admit(org, 'traces_ingested', 20)).admitted).toBe(true);
  });

  it('given a plan without a limit, the counter is never touched', async () => {
    const notCalled = async (): Promise<never> => { throw new Error('not called'); };
    const store = { reserve: notCalled, refund: async () => undefined, reserveTraces: notCalled, refundTraces: notCalled };
    const a = new IngestAdmission({ plans: plans('self_hosted_enterprise'), catalog, store, refusalCacheMs: 0 });
    expect((await a.admit(randomUUID(), 'traces_ingested', 10 ** 6)).admitted).toBe(true);
    expect((await a.admitTraces(randomUUID(), randomUUID(), Array.from({ length: 1000 }, traceId))).admitted).toBe(true);
  });

  it('when Postgres is away, then the request is admitted (fail open) and the failure reported', async () => {
    const dead = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMillis: 500 });
    const failures: unknown[] = [];
    const a = new IngestAdmission({ plans: plans('tight'), catalog, store: postgresAdmissionStore(dead), refusalCacheMs: 0, onCheckFailed: (e) => failures.push(e) });
    expect((await a.admit(randomUUID(), 'traces_ingested', 1000)).admitted).toBe(true);
    expect((await a.admitTraces(randomUUID(), randomUUID(), [traceId()])).admitted).toBe(true);
    expect(failures).toHaveLength(2);
    await dead.end();
  });
});
