// The redaction policy projection's SQL against the real Postgres: each accepted change of a
// project's policy is its next version (what ingest writes on the spans it redacts), '' clears the
// policy and still counts; a policy for a project that does not exist is refused and stores nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { readRedactionPolicy } from '@llm/account-model';
import { ev, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

describe('redaction policy projection (Postgres)', () => {
  it('given a project, when its policy is set, changed and cleared, then the loader returns versions 1, 2, 3; an unknown project is refused', async () => {
    const hex = randomBytes(4).toString('hex');
    const [userId, projectId, unknown] = [randomUUID(), randomUUID(), randomUUID()];
    expect(await db.apply(ev('accounts.account.provisioned', {
      user: { id: userId, email: `${hex}@x.org`, name: '', username: hex }, organization: { id: randomUUID(), name: 'O', slug: `o-${hex}` },
      workspace: { id: randomUUID(), name: 'W', slug: 'w' }, project: { id: projectId, name: 'P', slug: 'p' }, api_key: null,
    }))).toEqual([{ status: 'applied' }]);
    const set = (project: string, policy: object | null) =>
      ev('accounts.redaction.policy_set', { project_id: project, policy_json: policy === null ? '' : JSON.stringify(policy) }, { actorId: userId });
    const emails = { rules: [{ detector: 'email' }] };
    const more = { rules: [{ detector: 'email' }, { detector: 'ipv4' }] };

    expect(await db.step('redactionPolicy', set(projectId, emails))).toEqual({ verdict: 'ok', after: { project: true, version: 1 } });
    expect(await readRedactionPolicy(db.pool, projectId)).toMatchObject({ project_id: projectId, policy: emails, version: 1 });
    expect(await db.step('redactionPolicy', set(projectId, more))).toEqual({ verdict: 'ok', after: { project: true, version: 2 } });
    expect(await readRedactionPolicy(db.pool, projectId)).toMatchObject({ policy: more, version: 2 });
    expect(await db.step('redactionPolicy', set(projectId, null))).toEqual({ verdict: 'ok', after: { project: true, version: 3 } });
    expect(await readRedactionPolicy(db.pool, projectId)).toMatchObject({ policy: null, version: 3 });
    expect(await db.step('redactionPolicy', set(unknown, emails))).toEqual({ verdict: 'redaction_project_not_found', after: { project: false, version: 0 } });
    expect(await readRedactionPolicy(db.pool, unknown)).toBeUndefined();
  });
});
