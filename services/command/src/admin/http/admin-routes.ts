// Operator endpoints: POST/DELETE /admin/simple/accounts/ (reference accounts §13). Each account is
// one event keyed by its e-mail; the rules are the user aggregate's (@llm/account-model), and the
// response is read back from the projected read model (read-your-writes).
import { randomBytes, randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { findUserByEmail, findUserById, readOrganization, readProject, readUser, readWorkspace } from '@llm/account-model';
import { adminAccountsCreate, adminAccountsDelete } from '@llm/contracts';
import { invalid } from '@llm/errors';
import type { AccountProvisioned } from '@llm/events';
import { validate, type Handlers, type Guards } from '@llm/http';
import { generateApiKey } from '@llm/auth';
import type { Pool } from '@llm/postgres';
import { planAccount } from '../../accounts/domain/account-plan.ts';
import { accountProvisioned } from '../../accounts/adapters/account-provisioning.ts';
import { orThrow, projectionLag, type AccountCommands } from '../../accounts/adapters/account-commands.ts';
import { accountRemovals } from '../../accounts/adapters/account-removals.ts';
import { adminBody } from './admin-refs.ts';
import type { SignupPlans } from '../../accounts/adapters/signup-plans.ts';

const ids = { uuid: randomUUID, suffix: () => randomBytes(3).toString('hex') };

/** The provisioned rows, with the columns this endpoint has always answered with. */
async function projectedAccount(pool: Pool, plan: AccountProvisioned) {
  const [user, org, workspace, project] = await Promise.all([
    readUser(pool, plan.user.id), readOrganization(pool, plan.organization.id), readWorkspace(pool, plan.workspace.id), readProject(pool, plan.project.id),
  ]);
  if (!user || !org || !workspace || !project) throw projectionLag();
  return { user, organization: { id: org.id, name: org.name, slug: org.slug, owner_id: org.owner_id, created_at: org.created_at }, workspace, project };
}

export interface AdminRouteDeps {
  commands: AccountCommands;
  pool: Pool;
  plans: SignupPlans;
  /** Drops the cached resolutions of a key prefix (a deleted account's keys stop at once here). */
  forgetKey?: ((prefix: string) => void) | undefined;
}

export function adminRoutes(deps: AdminRouteDeps, guards: Guards<'admin'>): Handlers {
  const { commands, pool, plans, forgetKey } = deps;
  const removals = accountRemovals({ pool, commands, forgetKey });
  return {
    'admin.accounts.create': [...guards.admin, adminBody(async (req: Request, res) => {
      const body = validate(adminAccountsCreate, req.body);
      const out: Record<string, unknown> = {};
      for (const [ref, acc] of Object.entries(body.accounts)) {
        const options = { create_api_keys: true, return_api_keys: true, dry_run: false, ...(acc.options ?? body.options ?? {}) };
        const requested = acc.subscription?.plan;
        if (requested !== undefined && !plans.isPlan(requested)) {
          throw invalid('unknown_plan', `Unknown plan '${requested}'.`, { plan: requested });
        }
        const drafted = planAccount(acc, ids);
        const plan = { ...drafted, organization: { ...drafted.organization, plan: requested ?? plans.signupPlan() } };
        const key = options.create_api_keys ? generateApiKey() : undefined;
        const change = accountProvisioned(plan, key, req.id);
        // A dry run answers what the account would be, after the same rules (a taken e-mail or slug).
        if (options.dry_run) orThrow(await commands.decideEarly(change));
        else {
          await commands.commit(change);
          if (requested === undefined) await plans.afterSignup?.({ id: plan.organization.id, name: plan.organization.name }, { requestId: req.id, email: acc.user.email, log: req.log });
        }
        const a = options.dry_run
          ? { user: plan.user, organization: drafted.organization, workspace: plan.workspace, project: { ...plan.project, is_default: true } }
          : await projectedAccount(pool, change.payload);
        const entry: Record<string, unknown> = {
          user: { ...a.user, uid: a.user.id },
          organizations: { org: a.organization },
          workspaces: { wrk: { ...a.workspace, organization_id: plan.organization.id } },
          projects: { prj: { ...a.project, organization_id: plan.organization.id, workspace_id: plan.workspace.id } },
        };
        entry.subscriptions = { org: { plan: plan.organization.plan, active: true } };
        if (key && options.return_api_keys) entry.api_keys = { key: key.raw };
        out[ref] = entry;
      }
      res.status(200).json({ accounts: out });
    })],
    'admin.accounts.delete': [...guards.admin, adminBody(async (req, res) => {
      const body = validate(adminAccountsDelete, req.body);
      for (const acc of Object.values(body.accounts)) {
        // The event is keyed by the e-mail, so a user named by id is looked up first; nobody found: nothing to delete.
        const u = acc.user.id ? await findUserById(pool, acc.user.id) : acc.user.email ? await findUserByEmail(pool, acc.user.email) : undefined;
        if (!u || body.dry_run) continue;
        // The user's organizations (and their secrets and keys) go with them.
        await removals.user(req, u);
      }
      res.status(204).end();
    })],
  };
}
