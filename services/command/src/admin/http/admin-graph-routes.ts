// POST/DELETE /admin/accounts/ (compat §2.3): an operator creates a graph of entities in one call —
// users, organizations, workspaces, projects, roles and API keys, each named by a request-local ref
// that later entries use as {"ref": …} — or deletes users, organizations, workspaces and projects
// (a dry run by default). Every write is the same account event the entity routes append, so the
// same aggregates decide it; the graph only orders them (users → organizations → workspaces →
// projects → roles → keys). An organization here comes with its workspace and default project: the
// first workspace and project the request names for it become those, instead of extra ones.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { findUserByEmail, findUserById, isUuid, membershipId, type MembershipScopeKind, organizationsOwnedBy, organizationWorkspace, readOrganization, readProject, readWorkspace, userKey, workspaceKept } from '@llm/account-model';
import { adminGraphCreate, adminGraphDelete, type AdminGraphCreate, type EntityRef } from '@llm/contracts';
import { AppError, invalid } from '@llm/errors';
import { statusOf, validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { planAccount, slugify } from '../../accounts/domain/account-plan.ts';
import { operatorOrigin, projectionLag, type AccountCommands } from '../../accounts/adapters/account-commands.ts';
import { accountRemovals } from '../../accounts/adapters/account-removals.ts';
import { accountCreations } from '../../accounts/adapters/account-creations.ts';
import type { SignupPlans } from '../../accounts/adapters/signup-plans.ts';
import { adminBody, adminViews, emptyAccount, entityResolver, type ResolvableKind } from './admin-refs.ts';

export interface AdminGraphDeps {
  pool: Pool;
  commands: AccountCommands;
  plans: SignupPlans;
  forgetKey?: (prefix: string) => void;
}

interface GraphError { code: string; message: string; details?: Record<string, unknown> }

const suffix = (): string => randomBytes(3).toString('hex');
const SCOPES: MembershipScopeKind[] = ['organization', 'workspace', 'project'];

export function adminGraphRoutes(deps: AdminGraphDeps, guards: Guards<'admin'>): Handlers {
  const { pool, commands } = deps;
  const resolveRef = entityResolver(pool);
  const views = adminViews(pool);
  const removals = accountRemovals(deps);
  const creations = accountCreations(deps);

  async function create(req: Request, body: AdminGraphCreate) {
    const locals: Record<ResolvableKind, Map<string, string>> = { user: new Map(), organization: new Map(), workspace: new Map(), project: new Map() };
    const resolve = (kind: ResolvableKind, ref: EntityRef, path: string) => resolveRef(kind, ref, path, locals[kind]);
    const out = emptyAccount();
    const errors: GraphError[] = [];
    const options = body.options ?? { create_api_keys: false, return_api_keys: false, seed_defaults: true };

    // Users: an existing e-mail is reused (no 409), as the reference does.
    for (const [ref, u] of Object.entries(body.users ?? {})) {
      const existing = await findUserByEmail(pool, u.email);
      let id = existing?.id;
      if (!id) {
        const user = planAccount({ user: u }, { uuid: randomUUID, suffix }).user;
        await commands.run(operatorOrigin(req), { type: 'accounts.user.created', key: userKey(user.email), payload: { user } });
        id = user.id;
      }
      locals.user.set(ref, id);
      out.users![ref] = await views.user(id);
    }
    // This backend has no password logins: identities are reported, never silently dropped.
    for (const ref of Object.keys(body.user_identities ?? {})) {
      errors.push({ code: 'not_implemented', message: "'user_identities' is not supported by this backend: users sign in through identity providers.", details: { ref } });
    }

    // Organizations, each with its workspace and default project (named by the request when it names them).
    const firstUser = [...locals.user.values()][0];
    const namesFor = (orgRef: string) => {
      const own = (r: EntityRef) => r.ref === orgRef;
      const ws = Object.entries(body.workspaces ?? {}).find(([, w]) => own(w.organization_ref));
      const projects = Object.entries(body.projects ?? {}).filter(([, p]) => own(p.organization_ref));
      const prj = projects.find(([, p]) => p.is_default === true) ?? projects[0];
      return { ws, prj };
    };
    const seededWorkspaces = new Set<string>();
    const seededProjects = new Set<string>();
    for (const [ref, o] of Object.entries(body.organizations ?? {})) {
      const owner = o.owner_user_ref ? await resolve('user', o.owner_user_ref, `organizations.${ref}.owner_user_ref`) : firstUser;
      if (!owner) throw invalid('organization_owner_required', `Organization '${ref}' requires a valid owner user.`, { ref });
      const requested = body.subscriptions?.[ref]?.plan;
      if (requested !== undefined && !deps.plans.isPlan(requested)) throw invalid('unknown_plan', `Unknown plan '${requested}'.`, { plan: requested });
      const { ws, prj } = namesFor(ref);
      const created = await creations.organization(req, {
        name: o.name, slug: o.slug, owner: await views.user(owner), plan: requested, actorId: 'admin',
        workspaceName: ws?.[1].name, ...(prj ? { project: { name: prj[1].name, slug: `${slugify(prj[1].name)}-${suffix()}` } } : {}),
      });
      locals.organization.set(ref, created.id);
      out.organizations![ref] = await views.organization(created.id);
      if (ws) { locals.workspace.set(ws[0], created.workspaceId); seededWorkspaces.add(ws[0]); }
      if (prj) { locals.project.set(prj[0], created.projectId); seededProjects.add(prj[0]); }
      if (body.subscriptions?.[ref]) {
        out.subscriptions ??= {};
        out.subscriptions[ref] = { plan: requested ?? deps.plans.signupPlan(), active: true };
      }
    }
    for (const ref of Object.keys(body.subscriptions ?? {})) {
      if (!locals.organization.has(ref)) {
        errors.push({ code: 'subscription_provision_failed', message: `Subscription '${ref}' names no organization created by this request; change a plan through the billing routes.`, details: { ref } });
      }
    }

    // Workspaces: an organization has exactly one, so a workspace names it.
    for (const [ref, w] of Object.entries(body.workspaces ?? {})) {
      if (!seededWorkspaces.has(ref)) {
        const organizationId = await resolve('organization', w.organization_ref, `workspaces.${ref}.organization_ref`);
        const ws = await organizationWorkspace(pool, organizationId);
        if (!ws) throw projectionLag();
        locals.workspace.set(ref, ws.id);
      }
      out.workspaces![ref] = await views.workspace(locals.workspace.get(ref)!);
    }

    // Projects beyond the seeded defaults.
    for (const [ref, p] of Object.entries(body.projects ?? {})) {
      if (!seededProjects.has(ref)) {
        const organizationId = await resolve('organization', p.organization_ref, `projects.${ref}.organization_ref`);
        const workspaceId = await resolve('workspace', p.workspace_ref, `projects.${ref}.workspace_ref`);
        locals.project.set(ref, await creations.project(req, { organizationId, workspaceId, name: p.name, isDefault: p.is_default === true }));
      }
      out.projects![ref] = await views.project(locals.project.get(ref)!);
    }

    // Roles: an organization's owner already holds `owner` at every level of it.
    for (const scope of SCOPES) {
      const memberships = body[`${scope}_memberships`] ?? {};
      for (const [ref, m] of Object.entries(memberships) as Array<[string, { user_ref: EntityRef; role: string } & Record<string, EntityRef>]>) {
        const scopeId = await resolve(scope, m[`${scope}_ref`]!, `${scope}_memberships.${ref}.${scope}_ref`);
        const userId = await resolve('user', m.user_ref, `${scope}_memberships.${ref}.user_ref`);
        const organizationId = await creations.organizationOf(scope, scopeId);
        if (!organizationId) throw projectionLag();
        const isOwner = (await readOrganization(pool, organizationId))?.owner_id === userId;
        const role = isOwner ? 'owner' : m.role;
        if (!isOwner) await creations.role(req, { organizationId, userId, role, ...(scope === 'organization' ? {} : { scope: { kind: scope, id: scopeId } }) });
        out[`${scope}_memberships`]![ref] = { id: membershipId(scope, scopeId, userId), [`${scope}_id`]: scopeId, user_id: userId, role };
      }
    }

    // API keys, only when asked for; their value only when asked to return it.
    if (options.create_api_keys) {
      for (const [ref, k] of Object.entries(body.api_keys ?? {})) {
        const projectId = await resolve('project', k.project_ref, `api_keys.${ref}.project_ref`);
        const userId = await resolve('user', k.user_ref, `api_keys.${ref}.user_ref`);
        const key = await creations.apiKey(req, { projectId, userId, name: k.name });
        out.api_keys ??= {};
        out.api_keys[ref] = { id: key.id, prefix: key.prefix, project_id: projectId, user_id: userId, ...(options.return_api_keys ? { value: key.raw } : {}) };
      }
    }
    return { accounts: [out], ...(errors.length > 0 ? { errors } : {}) };
  }

  return {
    'admin.graph.create': [...guards.admin, adminBody(async (req, res) => {
      const body = validate(adminGraphCreate, req.body);
      // The reference creates anyway on a dry run; a dry run that writes would be a surprise.
      if (body.options?.dry_run) throw invalid('dry_run_unsupported', 'A dry run of a graph creation is not supported: nothing was created.');
      res.status(200).json(await create(req, body));
    })],

    'admin.graph.delete': [...guards.admin, adminBody(async (req, res) => {
      const body = validate(adminGraphDelete, req.body);
      const t = body.target;
      const dryRun = body.dry_run;
      const skipped: Array<Record<string, string>> = [];
      const errors: GraphError[] = [];
      for (const [kind, list] of [['organization', t.organization_ids], ['workspace', t.workspace_ids], ['project', t.project_ids]] as const) {
        for (const id of list ?? []) if (!isUuid(id)) throw invalid('invalid_reference', `Invalid reference at '${kind}_ids': '${id}' is not a UUID`, { path: `${kind}_ids`, reason: 'not a UUID' });
      }
      // Users (by id or e-mail; unknown or malformed ones are skipped), with the organizations they own.
      const users: Array<{ id: string; email: string }> = [];
      for (const id of t.user_ids ?? []) {
        const u = isUuid(id) ? await findUserById(pool, id) : undefined;
        if (u) users.push(u); else skipped.push({ kind: 'user', id, reason: isUuid(id) ? 'not_found' : 'invalid_id' });
      }
      for (const email of t.user_emails ?? []) {
        const u = await findUserByEmail(pool, email);
        if (u) users.push(u); else skipped.push({ kind: 'user', email, reason: 'not_found' });
      }
      const organizations = new Set<string>();
      for (const u of users) for (const o of await organizationsOwnedBy(pool, u.id)) organizations.add(o);
      const named: string[] = [];
      for (const id of t.organization_ids ?? []) {
        const o = await readOrganization(pool, id);
        if (o) { organizations.add(o.id); named.push(o.id); } else skipped.push({ kind: 'organization', id, reason: 'not_found' });
      }
      // A workspace goes only with its organization; a project alone unless it is its organization's default.
      const workspaces: string[] = [];
      for (const id of t.workspace_ids ?? []) {
        const w = await readWorkspace(pool, id);
        if (!w) skipped.push({ kind: 'workspace', id, reason: 'not_found' });
        else if (organizations.has(w.organization_id)) workspaces.push(w.id);
        else { const kept = workspaceKept(w.id); errors.push({ code: kept.code, message: kept.message, details: { id: w.id } }); }
      }
      const projects: Array<{ id: string; organizationId: string; alone: boolean }> = [];
      for (const id of t.project_ids ?? []) {
        const p = await readProject(pool, id);
        if (!p) skipped.push({ kind: 'project', id, reason: 'not_found' });
        else if (organizations.has(p.organization_id)) projects.push({ id: p.id, organizationId: p.organization_id, alone: false });
        else if (p.is_default) errors.push({ code: 'project_default_kept', message: `Project '${p.id}' is its organization's default project: it goes only with the organization.`, details: { id: p.id } });
        else projects.push({ id: p.id, organizationId: p.organization_id, alone: true });
      }
      if (!dryRun) {
        const attempt = async (what: () => Promise<unknown>, details: Record<string, unknown>): Promise<boolean> => {
          try { await what(); return true; } catch (err) {
            if (!(err instanceof AppError) || statusOf(err.kind) >= 500) throw err;
            errors.push({ code: err.code, message: err.message, details });
            return false;
          }
        };
        for (const p of projects.filter((x) => x.alone)) await attempt(() => removals.project(req, p.organizationId, p.id), { id: p.id });
        const owned = new Set(users.length > 0 ? (await Promise.all(users.map((u) => organizationsOwnedBy(pool, u.id)))).flat() : []);
        for (const o of named.filter((x) => !owned.has(x))) await attempt(() => removals.organization(req, o, ''), { id: o });
        for (const u of users) await attempt(() => removals.user(req, u), { id: u.id });
      }
      const list = (ids: Iterable<string>) => [...ids].map((id) => ({ id }));
      const deleted: Record<string, Array<{ id: string }>> = {};
      if (users.length > 0) deleted.users = list(users.map((u) => u.id));
      if (organizations.size > 0) deleted.organizations = list(organizations);
      if (workspaces.length > 0) deleted.workspaces = list(workspaces);
      if (projects.length > 0) deleted.projects = list(projects.map((p) => p.id));
      res.status(200).json({ dry_run: dryRun, deleted, ...(skipped.length > 0 ? { skipped } : {}), ...(errors.length > 0 ? { errors } : {}) });
    })],
  };
}
