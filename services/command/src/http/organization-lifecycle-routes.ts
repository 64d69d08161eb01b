// The organization lifecycle (compat §3.1, without invitations): POST /organizations/ (the caller
// owns it, with a "Default" workspace and project, on the signup plan), DELETE /organizations/{id}
// (owner only, never the owner's last one) and POST /organizations/{id}/transfer/{new_owner_id}
// (owner only, to a member). Each is one accounts.organization.* event keyed `organization:<id>`,
// decided by the organization-lifecycle aggregate (@llm/account-model) and answered after the
// projection has it.
import type { Request, RequestHandler } from 'express';
import { isUuid, NOT_PERMITTED, TRANSFER_INVALID, TRANSFER_OWNER_ONLY, organizationKey } from '@llm/account-model';
import { readOrganization, readUser } from '@llm/account-model';
import { organizationCreate } from '@llm/contracts';
import { AppError, invalid, notFound } from '@llm/errors';
import { validate, type Handlers } from '@llm/http';
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

const forbidden = (message: string): AppError => new AppError({ code: 'forbidden', kind: 'forbidden', message });

export function organizationLifecycleRoutes(deps: OrganizationLifecycleDeps, guard: RequestHandler[]): Handlers {
  const removals = accountRemovals(deps);
  const creations = accountCreations(deps);
  const meta = (req: Request, organizationId: string) =>
    ({ requestId: req.id, organizationId, aggregateId: organizationKey(organizationId), actorId: req.scope.userId });

  const create: RequestHandler = async (req, res) => {
    const body = validate(organizationCreate, req.body ?? {});
    const user = await readUser(deps.pool, req.scope.userId);
    if (!user) throw notFound('user_not_found', 'User not found');
    const display = user.name || user.username || user.email.split('@')[0]!;
    const name = body.name ?? `${display}'s Organization`;
    const { id } = await creations.organization(req, { name, description: body.description ?? undefined, owner: user, actorId: req.scope.userId });
    const org = await readOrganization(deps.pool, id);
    if (!org) throw projectionLag();
    res.status(201).json({ id: org.id, name: org.name, description: org.description });
  };

  const remove: RequestHandler = async (req, res) => {
    const org = await readOrganization(deps.pool, String(req.params.organization_id ?? ''));
    if (!org || org.owner_id !== req.scope.userId) throw forbidden(NOT_PERMITTED);
    // Decided first (the owner's last organization stays whole), then removed with its domains, secrets and keys.
    await removals.organization(req, org.id, req.scope.userId);
    res.status(200).json({ detail: 'Organization deleted successfully' });
  };

  const transfer: RequestHandler = async (req, res) => {
    const org = await readOrganization(deps.pool, String(req.params.organization_id ?? ''));
    if (!org || org.owner_id !== req.scope.userId) throw forbidden(TRANSFER_OWNER_ONLY);
    const target = String(req.params.new_owner_id ?? '');
    if (!isUuid(target)) throw invalid('organization_transfer_invalid', TRANSFER_INVALID);
    await deps.commands.commit({
      type: 'accounts.organization.transferred', key: organizationKey(org.id),
      payload: { organization_id: org.id, from_user_id: req.scope.userId, to_user_id: target.toLowerCase() }, meta: meta(req, org.id),
    });
    const after = await readOrganization(deps.pool, org.id);
    res.status(200).json({ organization_id: org.id, owner_id: after?.owner_id ?? target.toLowerCase() });
  };

  return {
    'organizations.create': [...guard, create],
    'organizations.delete': [...guard, remove],
    'organizations.transfer': [...guard, transfer],
  };
}
