// Organization resources (domains, SSO providers) belong to the caller's current organization: the
// caller must be a member of it (any role), and the organization's plan must grant the feature's
// flag (reference §2.3, §4). Membership is read from the accounts projection at request time — never
// cached, so a removed member loses access at once.
import type { RequestHandler } from 'express';
import { isOrganizationMember } from '@llm/account-model';
import { AppError } from '@llm/errors';
import type { Pool } from '@llm/postgres';

export interface OrganizationGuardOptions {
  pool: Pool;
  /** Whether the organization's plan grants the feature (see @llm/access `planHasFlag`). */
  entitled: (organizationId: string) => boolean | Promise<boolean>;
}

export const NOT_ENTITLED = 'You do not have access to this feature. Please upgrade your plan to continue.';
export const NOT_A_MEMBER = 'You do not have access to this organization';

export function organizationGuard(opts: OrganizationGuardOptions): RequestHandler {
  return async (req, _res, next) => {
    const { organizationId, userId } = req.scope;
    const member = await isOrganizationMember(opts.pool, organizationId, userId).catch((err: unknown) => {
      throw new AppError({ code: 'accounts_unavailable', kind: 'unavailable', message: 'The account store is not available; retry shortly.', cause: err });
    });
    if (!member) throw new AppError({ code: 'not_a_member', kind: 'forbidden', message: NOT_A_MEMBER });
    if (!await opts.entitled(organizationId)) throw new AppError({ code: 'not_entitled', kind: 'forbidden', message: NOT_ENTITLED });
    next();
  };
}
