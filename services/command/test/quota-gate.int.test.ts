// The evaluations_run reservation around an append, on the real Postgres: a change refused or never
// appended gives its reservation back; a change appended but not projected yet (503
// projection_lag) keeps it, because it will still apply and count.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPlanResolver, DEFAULT_PLANS, type PlanCatalog } from '@llm/access';
import type { Pool } from '@llm/postgres';
import { openFreshDatabase, type FreshDatabase } from '@llm/testing/fresh-database';
import { projectionLag } from '../src/accounts/adapters/account-commands.ts';
import { quotaGate } from '../src/quota/adapters/quota-gate.ts';

const root = path.resolve(import.meta.dirname, '../../..');
let db: FreshDatabase;
let pool: Pool;
beforeAll(async () => {
  // The exact meter of evaluations_run counts human_evaluations and evaluation_runs (projector-evaluations' table).
  db = await openFreshDatabase(inject('databaseUrl'), [path.join(root, 'services/projector-accounts/migrations'), path.join(root, 'services/projector-usage/migrations'), path.join(root, 'services/projector-evaluations/migrations')], { prefix: 'quotagate' });
  pool = db.pool;
});
afterAll(async () => { await db?.close(); });

const plans: PlanCatalog = { ...DEFAULT_PLANS, two: { counters: { evaluations_run: { limit: 2, strict: true, period: 'monthly' } } } };
const gate = () => quotaGate(pool, createPlanResolver({ read: async () => ({ plan: 'two', active: true, anchor: 1 }), defaultPlan: 'two', ttlMs: 60_000 }),
  { plans, quota: { refusalCacheMs: 0 }, enforce: true }, { warn: () => undefined });
const reserved = async (org: string): Promise<number> =>
  Number((await pool.query<{ v: string }>(`SELECT coalesce(sum(value), 0)::text AS v FROM quota_admissions WHERE organization_id = $1 AND meter = 'evaluations_run'`, [org])).rows[0]?.v ?? 0);
// Refunds are sent after the failure is answered: give them a moment to land.
const settled = () => new Promise((r) => setTimeout(r, 200));

describe('quota gate: evaluations_run', () => {
  it('when the append fails before anything is recorded, then the reservation is given back', async () => {
    const org = randomUUID();
    await expect(gate().evaluation(org, async () => { throw new Error('broker down'); })).rejects.toThrow('broker down');
    await settled();
    expect(await reserved(org)).toBe(0);
  });

  it('when the change was appended but is not projected yet (projection_lag), then it keeps its reservation', async () => {
    const org = randomUUID();
    const g = gate();
    await expect(g.evaluation(org, async () => { throw projectionLag(); })).rejects.toMatchObject({ code: 'projection_lag' });
    await settled();
    expect(await reserved(org)).toBe(1);
    // It counts: one more fits under the limit of two, the next is refused.
    await g.evaluation(org, async () => 'ok');
    await expect(g.evaluation(org, async () => 'over')).rejects.toMatchObject({ code: 'quota_exceeded' });
  });
});
