// Operator endpoints for organization roles: POST/DELETE /admin/simple/accounts/organizations/
// memberships/ (siblings of reference §13's account creation). Each change is an
// accounts.membership.* event keyed by the organization; the rules are the membership aggregate's
// (@llm/account-model), answered after the projection has the event.
import type { Request, RequestHandler } from 'express';
import { decideMemberRef, type MembershipEventType } from '@llm/account-model';
import { findUserByEmail, type KnownUser } from '@llm/accounts-read';
import { adminMembershipRemove, adminMembershipSet } from '@llm/contracts';
import type { EventPayloads } from '@llm/events';
import { validate, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { orThrow, type AccountCommands } from '../adapters/account-commands.ts';
import { organizationKey } from './organization-routes.ts';

export function membershipRoutes(commands: AccountCommands, pool: Pool, admin: RequestHandler): Handlers {
  const commit = <T extends MembershipEventType>(req: Request, type: T, payload: EventPayloads[T]): Promise<void> =>
    commands.commit({
      type, key: organizationKey(payload.organization_id), payload,
      meta: { requestId: req.id, organizationId: payload.organization_id, aggregateId: organizationKey(payload.organization_id) },
    });

  /** The user's id: as given (the aggregate decides whether it exists), or the one holding the e-mail. */
  async function userOf(ref: { id?: string | undefined; email?: string | undefined }): Promise<string> {
    if (ref.id !== undefined) return ref.id;
    const user = await findUserByEmail(pool, ref.email ?? '');
    orThrow(decideMemberRef(user));
    return (user as KnownUser).id; // found: decideMemberRef refused otherwise
  }

  return {
    'admin.memberships.set': [admin, async (req, res) => {
      const body = validate(adminMembershipSet, req.body);
      const userId = await userOf(body.user);
      await commit(req, 'accounts.membership.set', { organization_id: body.organization_id, user_id: userId, role: body.role });
      res.status(200).json({ membership: { organization_id: body.organization_id, user_id: userId, role: body.role } });
    }],
    'admin.memberships.remove': [admin, async (req, res) => {
      const body = validate(adminMembershipRemove, req.body);
      await commit(req, 'accounts.membership.removed', { organization_id: body.organization_id, user_id: await userOf(body.user) });
      res.status(204).end();
    }],
  };
}
