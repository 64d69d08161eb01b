// Headless initialisation: the account INIT_* describe (headless-init-config.ts) is created at start
// through the same command path as POST /admin/simple/accounts/ — one `accounts.account.provisioned`
// event on the accounts topic, decided by the user aggregate and applied by projector-accounts — and
// is left alone once it exists, so a restart appends nothing. What the environment asks for is
// compared with what the read model holds: the same user, organization, project and key is done; a
// user that exists with another organization, project or key is a start-up error that says which
// (keys are never replaced at start: a key once given out keeps working until an operator revokes it).
import { randomBytes, randomUUID } from 'node:crypto';
import { findUsableApiKey, findUserByEmail, readOrganization, readProject } from '@llm/account-model';
import { AppError, sleep } from '@llm/errors';
import type { Logger } from '@llm/logging';
import type { Pool } from '@llm/postgres';
import { planAccount } from '../accounts/domain/account-plan.ts';
import type { AccountCommands } from '../accounts/adapters/account-commands.ts';
import { accountProvisioned } from '../accounts/adapters/account-provisioning.ts';
import type { SignupPlans } from '../accounts/adapters/signup-plans.ts';
import type { HeadlessInit } from '../headless-init-config.ts';

export class HeadlessInitError extends Error {
  override readonly name = 'HeadlessInitError';
}

export interface HeadlessInitDeps {
  commands: AccountCommands;
  pool: Pool;
  plans: SignupPlans;
  log: Logger;
  /** How long to keep trying while the accounts projector is not there yet (split mode). */
  timeoutMs?: number;
}

type Found = { kind: 'absent' } | { kind: 'done'; organizationId: string; projectId: string } | { kind: 'conflict'; message: string };

/** What the read model holds of the initialisation. */
async function inspect(pool: Pool, init: HeadlessInit): Promise<Found> {
  const [user, key] = await Promise.all([findUserByEmail(pool, init.userEmail), findUsableApiKey(pool, init.apiKey.prefix, init.apiKey.secretHash)]);
  if (!user) {
    return key ? { kind: 'conflict', message: `INIT_API_KEY is already a key of another user's project (project ${key.project_id}); choose another key` } : { kind: 'absent' };
  }
  if (!key || key.user_id !== user.id) {
    return {
      kind: 'conflict',
      message: `INIT_USER_EMAIL ${init.userEmail} exists, but INIT_API_KEY is not one of its keys: a different key than the one this deployment was initialised with `
        + '(or the key was revoked, or the user was created another way). Keys are not replaced at start: create or revoke keys through the admin API, and set INIT_API_KEY to a key the user holds.',
    };
  }
  const [organization, project] = await Promise.all([readOrganization(pool, key.organization_id), readProject(pool, key.project_id)]);
  if (organization?.name !== init.organizationName || project?.name !== init.projectName) {
    return {
      kind: 'conflict',
      message: `INIT_API_KEY belongs to organization '${organization?.name ?? '?'}', project '${project?.name ?? '?'}', not INIT_ORG_NAME '${init.organizationName}', INIT_PROJECT_NAME '${init.projectName}': `
        + 'the initialisation was changed after the first start (rename through the API instead).',
    };
  }
  return { kind: 'done', organizationId: organization.id, projectId: project.id };
}

/**
 * Creates the account unless it exists. Resolves with what happened; rejects with a HeadlessInitError
 * when the environment contradicts what exists. Another replica initialising at the same moment is
 * fine: the aggregate refuses the second account, and the next look finds the first one's.
 */
export async function runHeadlessInit(deps: HeadlessInitDeps, init: HeadlessInit): Promise<'created' | 'unchanged'> {
  const deadline = Date.now() + (deps.timeoutMs ?? 120_000);
  for (let attempt = 0; ; attempt++) {
    const found = await inspect(deps.pool, init);
    if (found.kind === 'conflict') throw new HeadlessInitError(found.message);
    if (found.kind === 'done') {
      deps.log.info({ email: init.userEmail, organizationId: found.organizationId, projectId: found.projectId }, 'headless initialisation: the account exists, nothing to do');
      return 'unchanged';
    }
    const plan = planAccount(
      { user: { email: init.userEmail }, organization: { name: init.organizationName }, project: { name: init.projectName } },
      { uuid: randomUUID, suffix: () => randomBytes(3).toString('hex') },
    );
    const signupPlan = deps.plans.signupPlan();
    try {
      await deps.commands.commit(accountProvisioned({ ...plan, organization: { ...plan.organization, plan: signupPlan } }, init.apiKey, `init-${randomUUID()}`));
    } catch (err) {
      // The projector not there yet (503 projection_lag), or another replica's account first (409): look again.
      const retry = err instanceof AppError && (err.kind === 'unavailable' || err.kind === 'conflict');
      if (!retry || Date.now() > deadline) throw err;
      deps.log.warn({ code: err.code, attempt }, 'headless initialisation: retrying');
      await sleep(Math.min(250 * 2 ** attempt, 5_000));
      continue;
    }
    await deps.plans.afterSignup?.({ id: plan.organization.id, name: plan.organization.name }, { requestId: 'headless-init', email: init.userEmail, log: deps.log });
    deps.log.info({ email: init.userEmail, organizationId: plan.organization.id, projectId: plan.project.id, keyPrefix: init.apiKey.prefix }, 'headless initialisation: account created');
    return 'created';
  }
}
