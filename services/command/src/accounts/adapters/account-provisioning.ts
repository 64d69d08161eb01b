// The event that creates a whole account (user, organization, default workspace and project, and
// optionally an API key): built one way for the admin API (POST /admin/simple/accounts/) and for
// the headless initialisation at start, so both take the same command path.
import { randomUUID } from 'node:crypto';
import type { AccountProvisioned } from '@llm/events';
import type { AccountChange } from './account-commands.ts';
import { userKey } from '@llm/account-model';

export function accountProvisioned(
  plan: Omit<AccountProvisioned, 'api_key'>,
  key: { prefix: string; secretHash: string } | undefined,
  requestId: string,
): AccountChange<'accounts.account.provisioned'> {
  return {
    type: 'accounts.account.provisioned', key: userKey(plan.user.email),
    payload: { ...plan, api_key: key ? { id: randomUUID(), prefix: key.prefix, secret_hash: key.secretHash, expires_at_us: 0 } : null },
    meta: { requestId, organizationId: plan.organization.id, projectId: plan.project.id },
  };
}
