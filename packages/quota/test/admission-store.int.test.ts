// The admission counter on the real Postgres: its SQL predicate agrees with `admits`, a period
// starts from the exact meter of that period only, concurrent reservations never take more than
// the predicate allows, a refund gives room back, and IngestAdmission fails open without Postgres.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { openFreshDatabase, type FreshDatabase } from '@llm/testing/fresh-database';
import { createPlanResolver, DEFAULT_PLANS, type PlanCatalog } from '@llm/access';
import type { Pool } from '@llm/postgres';
import { admits, IngestAdmission, postgresAdmissionStore, type Reservation } from '../src/index.ts';

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
    const store = { reserve: async () => { throw new Error('not called'); }, refund: async () => undefined };
    const a = new IngestAdmission({ plans: plans('self_hosted_enterprise'), catalog, store, refusalCacheMs: 0 });
    expect((await a.admit(randomUUID(), 'traces_ingested', 10 ** 6)).admitted).toBe(true);
  });

  it('when Postgres is away, then the request is admitted (fail open) and the failure reported', async () => {
    const dead = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMillis: 500 });
    const failures: unknown[] = [];
    const a = new IngestAdmission({ plans: plans('tight'), catalog, store: postgresAdmissionStore(dead), refusalCacheMs: 0, onCheckFailed: (e) => failures.push(e) });
    expect((await a.admit(randomUUID(), 'traces_ingested', 1000)).admitted).toBe(true);
    expect(failures).toHaveLength(1);
    await dead.end();
  });
});
