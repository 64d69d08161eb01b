// PATCH/PUT /organizations/{id} (reference §3.5): name, description and the auth flags. Owner only;
// changing flags needs the plan's `access` flag. The new flags are defaults ← stored ← sent, checked
// against the rules below, and recorded as accounts.organization.updated at the version read (a
// concurrent change of the same organization makes one of the two a 409).
import type { Request, RequestHandler } from 'express';
import { countVerifiedDomains, memberRole, readOrganization } from '@llm/accounts-read';
import type { DeploymentMethods } from '@llm/auth-policy';
import { organizationUpdate, organizationView, type OrganizationRow } from '@llm/contracts';
import { AppError, conflict, invalid, notFound, unavailable } from '@llm/errors';
import { isVersionConflict } from '@llm/events';
import { validate, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { AccountAppender } from '../adapters/account-appender.ts';
import type { AccountCommands } from '../adapters/account-commands.ts';
import { waitForEvent } from '../adapters/accounts-store.ts';

export interface OrganizationRouteDeps {
  commands: AccountCommands;
  pool: Pool;
  appender: AccountAppender;
  deployment: DeploymentMethods;
  /** Whether the organization's plan has the `access` flag (changing auth flags). */
  mayChangeFlags: (organizationId: string) => boolean;
  /** Active and valid SSO providers of the organization. */
  liveProviders: (organizationId: string) => Promise<number>;
}

export const organizationKey = (organizationId: string): string => `organization:${organizationId}`;

const INVALID = 'Invalid request data for organization update.';
const NOT_ALLOWED = 'You do not have access to perform this action. Please contact your organization admin.';
const NOT_ENTITLED = 'You do not have access to this feature. Please upgrade your plan to continue.';

type Flags = Record<string, boolean>;

export function organizationRoutes(deps: OrganizationRouteDeps, guard: RequestHandler[]): Handlers {
  const defaults = (): Flags => ({
    is_demo: false, allow_email: deps.deployment.email !== undefined, allow_social: deps.deployment.social.length > 0,
    allow_sso: false, allow_root: false, domains_only: false, auto_join: false,
  });

  async function nextFlags(org: OrganizationRow, sent: Flags): Promise<Flags> {
    const flags: Flags = { ...defaults(), ...org.flags, ...sent };
    if (flags.allow_sso && await deps.liveProviders(org.id) === 0) throw invalid('organization_flags_invalid', `${INVALID} SSO needs an active and valid SSO provider.`);
    if ((flags.auto_join || flags.domains_only) && await countVerifiedDomains(deps.pool, org.id) === 0) {
      throw invalid('organization_flags_invalid', `${INVALID} auto_join and domains_only need a verified domain.`);
    }
    // Nobody could sign in otherwise: the owner keeps a way in.
    if (!flags.allow_email && !flags.allow_social && !flags.allow_sso) flags.allow_root = true;
    return flags;
  }

  const update: RequestHandler = async (req: Request, res) => {
    const body = validate(organizationUpdate, req.body);
    const orgId = String(req.params.organization_id ?? '');
    const org = await readOrganization(deps.pool, orgId);
    const role = org ? await memberRole(deps.pool, org.id, req.scope.userId) : undefined;
    // A non-member cannot tell the organization exists.
    if (!org || role === undefined) throw notFound('organization_not_found', 'Organization not found');
    if (role !== 'owner' && org.owner_id !== req.scope.userId) throw new AppError({ code: 'forbidden', kind: 'forbidden', message: NOT_ALLOWED });
    if (body.slug !== undefined && body.slug !== org.slug) throw invalid('organization_slug_immutable', `${INVALID} The organization slug cannot be changed.`);
    let flags = org.flags;
    if (body.flags !== undefined) {
      if (!deps.mayChangeFlags(org.id)) throw new AppError({ code: 'not_entitled', kind: 'forbidden', message: NOT_ENTITLED });
      flags = await nextFlags(org, body.flags);
    }
    const description = body.description === undefined ? org.description : body.description;
    const eventId = await deps.appender.append('accounts.organization.updated', organizationKey(org.id), {
      organization_id: org.id, name: body.name ?? org.name, description: description ?? '', flags_json: JSON.stringify(flags),
    }, { requestId: req.id, organizationId: org.id, aggregateId: organizationKey(org.id), actorId: req.scope.userId, expectedVersion: org.version });
    const outcome = await waitForEvent(deps.pool, eventId);
    if (outcome.status === 'timeout') throw unavailable('projection_lag', 'The change was accepted but is not visible yet; retry the read shortly.');
    if (outcome.status === 'rejected') {
      if (isVersionConflict(outcome.reason)) throw conflict('organization_changed', 'The organization changed meanwhile; read it again and retry.');
      throw invalid('organization_flags_invalid', `${INVALID} ${outcome.reason}`);
    }
    const after = await readOrganization(deps.pool, org.id);
    if (!after) throw notFound('organization_not_found', 'Organization not found');
    res.status(200).json(organizationView(after));
  };

  return { 'organizations.update': [...guard, update], 'organizations.replace': [...guard, update] };
}
