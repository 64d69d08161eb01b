// The one way an organization, a project, an API key or a role is written, whoever asks (an owner's
// own route, an operator's entity or graph route): the event with its key and envelope, and what
// must follow it in this process (a new organization's signup hook, a role change reaching the
// user's cached keys). Counterpart of account-removals.ts.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { apiKeyPrefixesOfMember, apiKeysKey, type MembershipScopeKind, organizationKey, readProject, readWorkspace } from '@llm/account-model';
import { generateApiKey } from '@llm/auth';
import type { Pool } from '@llm/postgres';
import { slugify } from '../domain/account-plan.ts';
import type { AccountCommands } from './account-commands.ts';
import type { SignupPlans } from './signup-plans.ts';

export interface AccountCreationDeps {
  pool: Pool;
  commands: AccountCommands;
  plans?: SignupPlans | undefined;
  forgetKey?: ((prefix: string) => void) | undefined;
}

export interface NewOrganization {
  name: string;
  slug?: string | undefined;
  description?: string | undefined;
  owner: { id: string; email: string };
  /** A plan asked for; absent = the signup plan, and the signup hook runs. */
  plan?: string | undefined;
  workspaceName?: string | undefined;
  /** Its default project's name and slug; absent = "Default". */
  project?: { name: string; slug: string } | undefined;
  actorId?: string | undefined;
}

const suffix = (): string => randomBytes(3).toString('hex');

export function accountCreations(deps: AccountCreationDeps) {
  const { pool, commands } = deps;

  return {
    /** An organization with its workspace and default project, the owner its owner at all three levels. */
    async organization(req: Request, o: NewOrganization): Promise<{ id: string; workspaceId: string; projectId: string }> {
      const id = randomUUID();
      const workspace = { id: randomUUID(), name: o.workspaceName ?? 'Default', slug: 'default' };
      const project = { id: randomUUID(), ...(o.project ?? { name: 'Default', slug: 'default' }) };
      await commands.commit({
        type: 'accounts.organization.created', key: organizationKey(id),
        payload: {
          organization: { id, name: o.name, slug: o.slug ?? `${slugify(o.name)}-${suffix()}`, plan: o.plan ?? deps.plans?.signupPlan() ?? '' },
          owner_id: o.owner.id, description: o.description ?? '', workspace, project,
        },
        meta: { requestId: req.id, organizationId: id, aggregateId: organizationKey(id), ...(o.actorId ? { actorId: o.actorId } : {}) },
      });
      if (o.plan === undefined) await deps.plans?.afterSignup?.({ id, name: o.name }, { requestId: req.id, email: o.owner.email, log: req.log });
      return { id, workspaceId: workspace.id, projectId: project.id };
    },

    /** A project in the organization's workspace (decided by the project aggregate). */
    async project(req: Request, p: { organizationId: string; workspaceId: string; name: string; isDefault: boolean }): Promise<string> {
      const id = randomUUID();
      await commands.commit({
        type: 'accounts.project.created', key: organizationKey(p.organizationId),
        payload: { organization_id: p.organizationId, workspace_id: p.workspaceId, project: { id, name: p.name, slug: `${slugify(p.name)}-${suffix()}` }, is_default: p.isDefault },
        meta: { requestId: req.id, organizationId: p.organizationId, projectId: id, aggregateId: organizationKey(p.organizationId) },
      });
      return id;
    },

    /** An API key of the user in the project; the raw key exists only in this answer. */
    async apiKey(req: Request, k: { projectId: string; userId: string; name?: string | undefined }): Promise<{ id: string; prefix: string; raw: string }> {
      const project = await readProject(pool, k.projectId);
      const key = generateApiKey();
      const id = randomUUID();
      await commands.commit({
        type: 'accounts.api_key.created', key: apiKeysKey(k.projectId),
        payload: { key_id: id, project_id: k.projectId, user_id: k.userId, prefix: key.prefix, secret_hash: key.secretHash, name: k.name ?? '', expires_at_us: 0 },
        meta: { requestId: req.id, projectId: k.projectId, ...(project ? { organizationId: project.organization_id } : {}), aggregateId: `api_key:${id}` },
      });
      return { id, prefix: key.prefix, raw: key.raw };
    },

    /** The organization a workspace or project belongs to (undefined when it does not exist). */
    async organizationOf(scope: MembershipScopeKind, id: string): Promise<string | undefined> {
      if (scope === 'organization') return id;
      return (scope === 'workspace' ? await readWorkspace(pool, id) : await readProject(pool, id))?.organization_id;
    },

    /** Sets (role) or removes (role undefined) the user's role in the organization, or in one of its workspaces or projects. */
    async role(req: Request, r: { organizationId: string; userId: string; role?: string; scope?: { kind: 'workspace' | 'project'; id: string } }): Promise<void> {
      const meta = { requestId: req.id, organizationId: r.organizationId, aggregateId: organizationKey(r.organizationId) };
      const where = { organization_id: r.organizationId, user_id: r.userId, ...(r.scope ? { scope: r.scope.kind, scope_id: r.scope.id } : {}) };
      if (r.role === undefined) await commands.commit({ type: 'accounts.membership.removed', key: organizationKey(r.organizationId), payload: where, meta });
      else await commands.commit({ type: 'accounts.membership.set', key: organizationKey(r.organizationId), payload: { ...where, role: r.role }, meta });
      // The user's keys resolve to a role: the change reaches them at once in this process.
      for (const prefix of await apiKeyPrefixesOfMember(pool, r.organizationId, r.userId)) deps.forgetKey?.(prefix);
    },
  };
}
export type AccountCreations = ReturnType<typeof accountCreations>;
