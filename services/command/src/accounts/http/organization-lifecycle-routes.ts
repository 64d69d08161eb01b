// The organization lifecycle (compat §3.1, without invitations): POST /organizations/ (the caller
// owns it, with a "Default" workspace and project, on the signup plan), DELETE /organizations/{id}
// (owner only, never the owner's last one) and POST /organizations/{id}/transfer/{new_owner_id}
// (owner only, to a member). Each is one accounts.organization.* event keyed `organization:<id>`,
// decided by the organization-lifecycle aggregate (@llm/account-model) and answered after the
// projection has it.
import type { RequestHandler } from 'express';
import { organizationKey, readOrganization, readUser, refuse } from '@llm/account-model';
import { organizationCreate } from '@llm/contracts';
import { validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { projectionLag, type AccountCommands } from '../adapters/account-commands.ts';
import { accountRemovals } from '../adapters/account-removals.ts';
import { accountCreations } from '../adapters/account-creations.ts';
import type { SignupPlans } from '../adapters/signup-plans.ts';

export interface OrganizationLifecycleDeps {
  pool: Pool;
  commands: AccountCommands;
  plans: SignupPlans;
  /** Drops the cached resolutions of a key prefix (the organization's keys stop working at once here). */
  forgetKey?: (prefix: string) => void;
}

export function organizationLifecycleRoutes(deps: OrganizationLifecycleDeps, guards: Guards<'member'>): Handlers {
  const removals = accountRemovals(deps);
  const creations = accountCreations(deps);

  const create: RequestHandler = async (req, res) => {
    const body = validate(organizationCreate, req.body ?? {});
    const user = await readUser(deps.pool, req.scope.userId);
    if (!user) throw refuse('user_not_found', 'User not found');
    const display = user.name || user.username || user.email.split('@')[0]!;
    const name = body.name ?? `${display}'s Organization`;
    const { id } = await creations.organization(req, { name, description: body.description ?? undefined, owner: user, actorId: req.scope.userId });
    const org = await readOrganization(deps.pool, id);
    if (!org) throw projectionLag();
    res.status(201).json({ id: org.id, name: org.name, description: org.description });
  };

  const remove: RequestHandler = async (req, res) => {
    // Decided first by the aggregate (owner only — an unknown id answers the same —, never the
    // owner's last organization), then removed with its domains, secrets and keys.
    await removals.organization(req, String(req.params.organization_id ?? '').toLowerCase(), req.scope.userId);
    res.status(200).json({ detail: 'Organization deleted successfully' });
  };

  const transfer: RequestHandler = async (req, res) => {
    // The aggregate decides (owner only, to a member): its codes are the answers.
    const organizationId = String(req.params.organization_id ?? '').toLowerCase();
    const target = String(req.params.new_owner_id ?? '').toLowerCase();
    await deps.commands.run(req, {
      type: 'accounts.organization.transferred', key: organizationKey(organizationId),
      payload: { organization_id: organizationId, from_user_id: req.scope.userId, to_user_id: target }, meta: { organizationId, projectId: undefined },
    });
    const after = await readOrganization(deps.pool, organizationId);
    res.status(200).json({ organization_id: organizationId, owner_id: after?.owner_id ?? target });
  };

  return {
    'organizations.create': [...guards.member, create],
    'organizations.delete': [...guards.member, remove],
    'organizations.transfer': [...guards.member, transfer],
  };
}
