// Deleted projects' evaluation runs leave the read model (src/purge/run-purge.ts), on the test run's
// real Postgres: a run of a project tombstoned long enough ago goes with its scenarios, results and
// metrics; a live project's run and a run of a project deleted within the delay stay; a second pass
// deletes nothing more.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migratePostgres, openPostgres, type Pool } from '@llm/postgres';
import { createLogger } from '@llm/logging';
import { ACCOUNTS_MIGRATIONS } from '@llm/service-projector-accounts';
import { EVALUATIONS_MIGRATIONS } from '../src/app.ts';
import { createRunPurge } from '../src/purge/run-purge.ts';

let pool: Pool;
beforeAll(async () => {
  const serverUrl = inject('databaseUrl');
  const name = `purge_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: serverUrl, max: 1 });
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  pool = openPostgres(url.toString());
  await migratePostgres(pool, ACCOUNTS_MIGRATIONS);
  await migratePostgres(pool, EVALUATIONS_MIGRATIONS);
});
afterAll(async () => { await pool?.end(); });

/** A run of `projectId` with one scenario, one cell and one metric row. */
async function runOf(projectId: string): Promise<string> {
  const run = randomUUID();
  const scenario = randomUUID();
  await pool.query(`INSERT INTO evaluation_runs (id, project_id, status, created_at) VALUES ($1, $2, 'running', now())`, [run, projectId]);
  await pool.query(`INSERT INTO evaluation_scenarios (id, run_id, project_id, status, created_at) VALUES ($1, $2, $3, 'running', now())`, [scenario, run, projectId]);
  await pool.query(`INSERT INTO evaluation_results (id, run_id, scenario_id, project_id, step_key, repeat_idx, status, created_at) VALUES ($1, $2, $3, $4, 'k', 0, 'success', now())`, [randomUUID(), run, scenario, projectId]);
  await pool.query(`INSERT INTO evaluation_metrics (id, run_id, project_id, status, created_at) VALUES ($1, $2, $3, 'success', now())`, [randomUUID(), run, projectId]);
  return run;
}
const rows = async (projectId: string): Promise<number> => (await pool.query(
  `SELECT (SELECT count(*) FROM evaluation_runs WHERE project_id = $1)::int + (SELECT count(*) FROM evaluation_scenarios WHERE project_id = $1)::int
        + (SELECT count(*) FROM evaluation_results WHERE project_id = $1)::int + (SELECT count(*) FROM evaluation_metrics WHERE project_id = $1)::int AS n`, [projectId],
)).rows[0].n;

describe('evaluation-run purge', () => {
  it('given runs of a long-deleted, a just-deleted and a live project, when a pass runs, then only the long-deleted project\'s rows go, once', async () => {
    const [gone, recent, live] = [randomUUID(), randomUUID(), randomUUID()];
    for (const p of [gone, recent, live]) { await runOf(p); await runOf(p); }
    await pool.query(`INSERT INTO project_tombstones (project_id, organization_id, deleted_at) VALUES ($1, $3, now() - interval '1 hour'), ($2, $3, now())`, [gone, recent, randomUUID()]);
    const purge = createRunPurge({ pool, log: createLogger({ name: 'test', level: 'silent' }) }, { enabled: true, intervalMs: 60_000, delayMs: 60_000 });
    expect(await purge.purgeDue()).toBe(2);
    expect(await rows(gone)).toBe(0);
    expect(await rows(recent)).toBe(8);
    expect(await rows(live)).toBe(8);
    expect(await purge.purgeDue()).toBe(0);
  });
});
