// Operator routes for roles (compat §2.3): POST /admin/simple/accounts/{organizations|workspaces|
// projects}/memberships/ and DELETE …/{id}/memberships/{membership_id}, plus our body-addressed
// removal of an organization role (DELETE /admin/simple/accounts/organizations/memberships/). Each
// change is an accounts.membership.* event keyed by the organization, decided by the membership
// aggregate (@llm/account-model) and answered after the projection has it. A membership's id is
// derived from its scope and user (membershipId), so it needs no row of its own.
import type { RequestHandler } from 'express';
import { findMembership, findUserByEmail, membershipId, type MembershipScopeKind } from '@llm/account-model';
import { adminMembershipRemove, adminMembershipSet, adminScopedMembershipCreate, type EntityRef } from '@llm/contracts';
import { validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { AccountCommands } from '../../accounts/adapters/account-commands.ts';
import { accountCreations } from '../../accounts/adapters/account-creations.ts';
import { adminBody, emptyAccount, entityResolver, missing, pathId } from './admin-refs.ts';

const BODIES = {
  organization: adminScopedMembershipCreate('organization'),
  workspace: adminScopedMembershipCreate('workspace'),
  project: adminScopedMembershipCreate('project'),
};

export interface MembershipRouteDeps {
  pool: Pool;
  commands: AccountCommands;
  /** Drops the cached resolution of a key prefix: a role change reaches the user's keys at once. */
  forgetKey?: (prefix: string) => void;
}

export function membershipRoutes(deps: MembershipRouteDeps, guards: Guards<'admin'>): Handlers {
  const { pool } = deps;
  const resolve = entityResolver(pool);

  const creations = accountCreations(deps);
  const scoped = (scope: MembershipScopeKind, id: string) => (scope === 'organization' ? {} : { scope: { kind: scope, id } });

  /** The organization a workspace or project belongs to (404 when it does not exist). */
  async function organizationOf(scope: MembershipScopeKind, id: string): Promise<string> {
    const organizationId = await creations.organizationOf(scope, id);
    if (organizationId === undefined) throw missing(scope, id);
    return organizationId;
  }

  const view = (scope: MembershipScopeKind, scopeId: string, userId: string, role: string) =>
    ({ id: membershipId(scope, scopeId, userId), [`${scope}_id`]: scopeId, user_id: userId, role });

  /** POST …/<scope>s/memberships/: the reference's body, answered as an AdminAccountsResponse. */
  const create = (scope: MembershipScopeKind): RequestHandler => adminBody(async (req, res) => {
    const body = validate(BODIES[scope], req.body);
    const m = body.membership as { user_ref: EntityRef; role: string } & Record<string, EntityRef>;
    const scopeId = await resolve(scope, m[`${scope}_ref`]!, `membership.${scope}_ref`);
    const userId = await resolve('user', m.user_ref, 'membership.user_ref');
    const organizationId = await organizationOf(scope, scopeId);
    await creations.role(req, { organizationId, userId, role: m.role, ...scoped(scope, scopeId) });
    res.status(200).json({ accounts: [{ ...emptyAccount(), [`${scope}_memberships`]: { mem: view(scope, scopeId, userId, m.role) } }] });
  });

  /** DELETE …/<scope>s/{id}/memberships/{membership_id}. */
  const remove = (scope: MembershipScopeKind): RequestHandler => adminBody(async (req, res) => {
    const scopeId = pathId(req, `${scope}_id`);
    const mid = pathId(req, 'membership_id');
    const organizationId = await organizationOf(scope, scopeId);
    const found = await findMembership(pool, scope, scopeId, mid);
    if (!found) throw missing('membership', mid);
    await creations.role(req, { organizationId, userId: found.user_id, ...scoped(scope, scopeId) });
    res.status(200).json({ dry_run: false, deleted: { [`${scope}_memberships`]: [{ id: found.id }] } });
  });

  /** Our earlier body ({organization_id, user:{id|email}}): the user named by an e-mail must exist. */
  async function userOf(ref: { id?: string | undefined; email?: string | undefined }): Promise<string> {
    if (ref.id !== undefined) return ref.id;
    const user = await findUserByEmail(pool, ref.email ?? '');
    if (!user) throw missing('user', ref.email ?? '');
    return user.id;
  }

  return {
    'admin.memberships.set': [...guards.admin, async (req, res, next) => {
      // The reference's body names the membership; ours (kept for existing scripts) is flat.
      if (req.body && typeof req.body === 'object' && 'membership' in req.body) return create('organization')(req, res, next);
      return adminBody(async () => {
        const body = validate(adminMembershipSet, req.body);
        const userId = await userOf(body.user);
        await creations.role(req, { organizationId: body.organization_id, userId, role: body.role });
        res.status(200).json({
          membership: { organization_id: body.organization_id, user_id: userId, role: body.role },
          accounts: [{ ...emptyAccount(), organization_memberships: { mem: view('organization', body.organization_id, userId, body.role) } }],
        });
      })(req, res, next);
    }],
    'admin.memberships.remove': [...guards.admin, adminBody(async (req, res) => {
      const body = validate(adminMembershipRemove, req.body);
      await creations.role(req, { organizationId: body.organization_id, userId: await userOf(body.user) });
      res.status(204).end();
    })],
    'admin.organizations.memberships.delete': [...guards.admin, remove('organization')],
    'admin.workspaces.memberships.create': [...guards.admin, create('workspace')],
    'admin.workspaces.memberships.delete': [...guards.admin, remove('workspace')],
    'admin.projects.memberships.create': [...guards.admin, create('project')],
    'admin.projects.memberships.delete': [...guards.admin, remove('project')],
  };
}
