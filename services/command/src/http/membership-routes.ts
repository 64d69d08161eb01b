// Operator endpoints for organization roles: POST/DELETE /admin/simple/accounts/organizations/
// memberships/ (siblings of reference §13's account creation). Each change is an
// accounts.membership.* event keyed by the organization, answered after the projection has it.
import type { Request, RequestHandler } from 'express';
import { adminMembershipRemove, adminMembershipSet } from '@llm/contracts';
import { conflict, notFound, unavailable } from '@llm/errors';
import type { EventPayloads } from '@llm/events';
import { validate, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { AccountCommands } from '../adapters/account-commands.ts';
import { findUserByEmail, findUserById, waitForEvent } from '../adapters/accounts-store.ts';
import { organizationKey } from './organization-routes.ts';

export function membershipRoutes(commands: AccountCommands, pool: Pool, admin: RequestHandler): Handlers {
  const appender = commands.appender;
  async function commit<T extends 'accounts.membership.set' | 'accounts.membership.removed'>(req: Request, type: T, payload: EventPayloads[T]): Promise<void> {
    const eventId = await appender.append(type, organizationKey(payload.organization_id), payload, {
      requestId: req.id, organizationId: payload.organization_id, aggregateId: organizationKey(payload.organization_id),
    });
    const outcome = await waitForEvent(pool, eventId);
    if (outcome.status === 'timeout') throw unavailable('projection_lag', 'The change was accepted but is not visible yet; retry the read shortly.');
    if (outcome.status === 'rejected') {
      if (/not found$/.test(outcome.reason)) throw notFound('not_found', outcome.reason);
      throw conflict('membership_rejected', outcome.reason);
    }
  }

  async function userOf(ref: { id?: string | undefined; email?: string | undefined }): Promise<{ id: string }> {
    const user = ref.id !== undefined ? await findUserById(pool, ref.id) : await findUserByEmail(pool, ref.email ?? '');
    if (!user) throw notFound('user_not_found', 'User not found');
    return user;
  }

  return {
    'admin.memberships.set': [admin, async (req, res) => {
      const body = validate(adminMembershipSet, req.body);
      const user = await userOf(body.user);
      await commit(req, 'accounts.membership.set', { organization_id: body.organization_id, user_id: user.id, role: body.role });
      res.status(200).json({ membership: { organization_id: body.organization_id, user_id: user.id, role: body.role } });
    }],
    'admin.memberships.remove': [admin, async (req, res) => {
      const body = validate(adminMembershipRemove, req.body);
      const user = await userOf(body.user);
      await commit(req, 'accounts.membership.removed', { organization_id: body.organization_id, user_id: user.id });
      res.status(204).end();
    }],
  };
}
