// PATCH/PUT /organizations/{id} (reference §3.5): name, description and the auth flags. Owner only;
// changing flags needs the plan's `access` flag. The new flags are defaults ← stored ← sent, checked
// by the organization aggregate's rules (@llm/account-model) and recorded as
// accounts.organization.updated at the version read (a concurrent change makes one of the two a 409).
import type { Request, RequestHandler } from 'express';
import { decideSlug, memberRole, nextFlags, organizationKey, readOrganization, refuse } from '@llm/account-model';
import type { DeploymentMethods } from '@llm/auth-policy';
import { organizationUpdate, organizationView } from '@llm/contracts';
import { AppError, invalid } from '@llm/errors';
import { validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { orThrow, type AccountCommands } from '../adapters/account-commands.ts';

export interface OrganizationRouteDeps {
  pool: Pool;
  commands: AccountCommands;
  deployment: DeploymentMethods;
  /** Whether the organization's plan has the `access` flag (changing auth flags). */
  mayChangeFlags: (organizationId: string) => Promise<boolean>;
}

const NOT_ALLOWED = 'You do not have access to perform this action. Please contact your organization admin.';
const NOT_ENTITLED = 'You do not have access to this feature. Please upgrade your plan to continue.';

export function organizationRoutes(deps: OrganizationRouteDeps, guards: Guards<'member'>): Handlers {
  const defaults = () => ({
    is_demo: false, allow_email: deps.deployment.email !== undefined, allow_social: deps.deployment.social.length > 0,
    allow_sso: false, allow_root: false, domains_only: false, auto_join: false,
  });

  const update: RequestHandler = async (req: Request, res) => {
    const body = validate(organizationUpdate, req.body);
    // compat §3.1: a change that names no field is refused before anything else. A field sent as
    // null or "" counts as named (it clears the description) rather than the reference's "truthy".
    if (body.name === undefined && body.description === undefined && body.slug === undefined && body.flags === undefined) {
      throw invalid('nothing_to_update', 'Please provide a field to update');
    }
    const orgId = String(req.params.organization_id ?? '');
    const org = await readOrganization(deps.pool, orgId);
    const role = org ? await memberRole(deps.pool, org.id, req.scope.userId) : undefined;
    // A non-member cannot tell the organization exists.
    if (!org || role === undefined) throw refuse('organization_not_found', 'Organization not found');
    if (role !== 'owner' && org.owner_id !== req.scope.userId) throw new AppError({ code: 'forbidden', kind: 'forbidden', message: NOT_ALLOWED });
    orThrow(decideSlug(org.slug, body.slug));
    if (body.flags !== undefined && !await deps.mayChangeFlags(org.id)) throw new AppError({ code: 'not_entitled', kind: 'forbidden', message: NOT_ENTITLED });
    // The flag rules are the organization aggregate's: the early answer and the projector apply them.
    const flags = body.flags === undefined ? org.flags : nextFlags(defaults(), org.flags, body.flags);
    const description = body.description === undefined ? org.description : body.description;
    await deps.commands.run(req, {
      type: 'accounts.organization.updated', key: organizationKey(org.id),
      payload: { organization_id: org.id, name: body.name ?? org.name, description: description ?? '', flags_json: JSON.stringify(flags) },
      meta: { organizationId: org.id, expectedVersion: org.version },
    });
    const after = await readOrganization(deps.pool, org.id);
    if (!after) throw refuse('organization_not_found', 'Organization not found');
    res.status(200).json(organizationView(after));
  };

  return { 'organizations.update': [...guards.member, update], 'organizations.replace': [...guards.member, update] };
}
