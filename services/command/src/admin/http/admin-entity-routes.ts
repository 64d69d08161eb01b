// Operator entity routes (compat §2.3): one user, organization or API key at a time under
// /admin/simple/accounts/. Every write is an account event decided by its aggregate (users:
// accounts.account.provisioned / accounts.user.created / accounts.user.deleted; organizations:
// accounts.organization.created / .deleted by_operator; keys: accounts.api_key.created / .revoked),
// answered from the projection once it has the event. Errors use the admin body of §2.2:
// {"detail":{"message":…, <extra keys>}}.
import { randomBytes, randomUUID } from 'node:crypto';
import { apiKeysKey, membershipId, type MembershipScopeKind, readOrganization, readUser, userKey } from '@llm/account-model';
import { findApiKeyById } from '@llm/accounts-read';
import { adminApiKeyCreate, adminOrganizationCreate, adminUserCreate } from '@llm/contracts';
import { type AppError, invalid } from '@llm/errors';
import { validate, type Handlers, type Guards } from '@llm/http';
import { generateApiKey } from '@llm/auth';
import type { Pool } from '@llm/postgres';
import { planAccount } from '../../accounts/domain/account-plan.ts';
import { operatorOrigin, type AccountCommands } from '../../accounts/adapters/account-commands.ts';
import { accountRemovals } from '../../accounts/adapters/account-removals.ts';
import { accountCreations } from '../../accounts/adapters/account-creations.ts';
import type { SignupPlans } from '../../accounts/adapters/signup-plans.ts';
import { adminBody, adminViews, emptyAccount, entityResolver, missing, pathId } from './admin-refs.ts';

export interface AdminEntityDeps {
  pool: Pool;
  commands: AccountCommands;
  plans: SignupPlans;
  /** Drops the cached resolution of a key prefix (a revoked or deleted key stops working at once). */
  forgetKey?: (prefix: string) => void;
}

/** The reference answers 501 here; no input may earn a 5xx from us, so it is a 400 naming the feature. */
const notInEdition = (feature: string): AppError => invalid('not_supported', `'${feature}' is not supported by this backend: it has no password logins.`, { feature });

export function adminEntityRoutes(deps: AdminEntityDeps, guards: Guards<'admin'>): Handlers {
  const { pool, commands } = deps;

  const resolve = entityResolver(pool);
  const removals = accountRemovals(deps);
  const creations = accountCreations(deps);

  const views = adminViews(pool);
  const userView = views.user;

  /** The organization with its default workspace and project and the owner's three memberships, as the admin response maps them. */
  async function seededView(organizationId: string, workspaceId: string, projectId: string, ownerId: string) {
    const [org, wrk, prj] = await Promise.all([views.organization(organizationId), views.workspace(workspaceId), views.project(projectId)]);
    const membership = (scope: MembershipScopeKind, id: string) => ({ id: membershipId(scope, id, ownerId), [`${scope}_id`]: id, user_id: ownerId, role: 'owner' });
    return {
      organizations: { org },
      workspaces: { wrk },
      projects: { prj },
      organization_memberships: { org: membership('organization', org.id) },
      workspace_memberships: { wrk: membership('workspace', wrk.id) },
      project_memberships: { prj: membership('project', prj.id) },
    };
  }

  return {
    'admin.users.create': [...guards.admin, adminBody(async (req, res) => {
      const body = validate(adminUserCreate, req.body);
      const options = body.options ?? { create_api_keys: false, return_api_keys: false, seed_defaults: true };
      const ids = { uuid: randomUUID, suffix: () => randomBytes(3).toString('hex') };
      const account: Record<string, unknown> = emptyAccount();
      if (!options.seed_defaults) {
        // A user alone: no organization, so no key either (a key belongs to a project).
        const u = planAccount({ user: body.user }, ids).user;
        await commands.run(operatorOrigin(req), { type: 'accounts.user.created', key: userKey(u.email), payload: { user: u } });
        account.users = { user: await userView(u.id) };
      } else {
        const plan = planAccount({ user: body.user }, ids);
        const key = options.create_api_keys ? generateApiKey() : undefined;
        const keyId = randomUUID();
        const payload = {
          ...plan, organization: { ...plan.organization, plan: deps.plans.signupPlan() },
          api_key: key ? { id: keyId, prefix: key.prefix, secret_hash: key.secretHash, expires_at_us: 0 } : null,
        };
        await commands.run(operatorOrigin(req), { type: 'accounts.account.provisioned', key: userKey(plan.user.email), payload, meta: { organizationId: plan.organization.id, projectId: plan.project.id } });
        await deps.plans.afterSignup?.({ id: plan.organization.id, name: plan.organization.name }, { requestId: req.id, email: plan.user.email, log: req.log });
        Object.assign(account, { users: { user: await userView(plan.user.id) }, ...await seededView(plan.organization.id, plan.workspace.id, plan.project.id, plan.user.id) });
        if (key) {
          account.api_keys = {
            key: { id: keyId, prefix: key.prefix, project_id: plan.project.id, user_id: plan.user.id, ...(options.return_api_keys ? { value: key.raw } : {}) },
          };
        }
      }
      res.status(200).json({ accounts: [account] });
    })],

    'admin.users.delete': [...guards.admin, adminBody(async (req, res) => {
      const id = pathId(req, 'user_id');
      const u = await readUser(pool, id);
      if (!u) throw missing('user', id);
      const organizations = await removals.user(req, u);
      res.status(200).json({
        dry_run: false,
        deleted: { ...(organizations.length > 0 ? { organizations: organizations.map((o) => ({ id: o })) } : {}), users: [{ id: u.id }] },
      });
    })],

    'admin.organizations.create': [...guards.admin, adminBody(async (req, res) => {
      const body = validate(adminOrganizationCreate, req.body);
      if (!body.owner) throw invalid('organization_owner_required', "Organization 'org' requires a valid owner user.");
      const owner = await userView(await resolve('user', body.owner, 'owner'));
      const org = await creations.organization(req, { name: body.organization.name, slug: body.organization.slug, owner });
      const seeded = await seededView(org.id, org.workspaceId, org.projectId, owner.id);
      res.status(200).json({ accounts: [{ ...emptyAccount(), users: { owner }, ...seeded }] });
    })],

    'admin.organizations.delete': [...guards.admin, adminBody(async (req, res) => {
      const id = pathId(req, 'organization_id');
      const org = await readOrganization(pool, id);
      if (!org) throw missing('organization', id);
      await removals.organization(req, org.id, '');
      res.status(200).json({ dry_run: false, deleted: { organizations: [{ id: org.id }] } });
    })],

    'admin.api_keys.create': [...guards.admin, adminBody(async (req, res) => {
      const body = validate(adminApiKeyCreate, req.body);
      const projectId = await resolve('project', body.api_key.project_ref, 'api_key.project_ref');
      const userId = await resolve('user', body.api_key.user_ref, 'api_key.user_ref');
      const key = await creations.apiKey(req, { projectId, userId, name: body.api_key.name });
      const returned = body.options?.return_api_keys === true;
      res.status(200).json({
        accounts: [{
          ...emptyAccount(),
          api_keys: { key: { id: key.id, prefix: key.prefix, project_id: projectId, user_id: userId, ...(returned ? { value: key.raw } : {}) } },
        }],
      });
    })],

    'admin.api_keys.delete': [...guards.admin, adminBody(async (req, res) => {
      const id = pathId(req, 'api_key_id');
      const k = await findApiKeyById(pool, id);
      if (!k) throw missing('api_key', id);
      await commands.run(operatorOrigin(req), {
        type: 'accounts.api_key.revoked', key: apiKeysKey(k.project_id), payload: { key_id: k.id, project_id: k.project_id },
        meta: { projectId: k.project_id, aggregateId: `api_key:${k.id}` },
      });
      deps.forgetKey?.(k.prefix);
      res.status(200).json({ dry_run: false, deleted: { api_keys: [{ id: k.id }] } });
    })],

    // This backend signs users in through identity providers only: there are no passwords to set or
    // reset and no admin-made identities (a provider's subject is linked at its first sign-in).
    'admin.identities.create': [...guards.admin, adminBody(async () => { throw notInEdition('user_identities'); })],
    'admin.identities.delete': [...guards.admin, adminBody(async () => { throw notInEdition('user_identities'); })],
    'admin.reset_password': [...guards.admin, adminBody(async () => { throw notInEdition('reset_password'); })],
  };
}
