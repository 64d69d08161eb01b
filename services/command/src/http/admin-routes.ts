// Operator endpoints: POST/DELETE /admin/simple/accounts/ (reference accounts §13). Each account is
// one event; the response is read back from the projected read model (read-your-writes).
import { randomBytes, randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { adminAccountsCreate, adminAccountsDelete } from '@llm/contracts';
import { validate, type Handlers } from '@llm/http';
import { conflict, unavailable } from '@llm/errors';
import { generateApiKey } from '@llm/auth';
import type { Pool } from '@llm/postgres';
import { planAccount } from '../domain/account-plan.ts';
import { userKey } from '../adapters/account-appender.ts';
import type { AccountCommands } from '../adapters/account-commands.ts';
import { findUserByEmail, findUserById, readAccount, waitForEvent } from '../adapters/accounts-store.ts';

const ids = { uuid: randomUUID, suffix: () => randomBytes(3).toString('hex') };

function userExists(email: string) {
  return conflict('user_exists', `User with email '${email}' already exists.`);
}

export function adminRoutes(commands: AccountCommands, pool: Pool, auth: RequestHandler): Handlers {
  const appender = commands.appender;
  async function settle(eventId: string, email: string): Promise<void> {
    const outcome = await waitForEvent(pool, eventId);
    if (outcome.status === 'rejected') {
      if (/^Organization slug/.test(outcome.reason)) throw conflict('organization_slug_exists', outcome.reason);
      if (/already exists/.test(outcome.reason)) throw conflictWithEmail(email);
      throw conflict('rejected', outcome.reason);
    }
    if (outcome.status === 'timeout') throw unavailable('projection_lag', 'The change was accepted but is not visible yet; retry the read shortly.');
  }

  return {
    'admin.accounts.create': [auth, async (req: Request, res) => {
      const body = validate(adminAccountsCreate, req.body);
      const out: Record<string, unknown> = {};
      for (const [ref, acc] of Object.entries(body.accounts)) {
        const options = { create_api_keys: true, return_api_keys: true, dry_run: false, ...(acc.options ?? body.options ?? {}) };
        if (await findUserByEmail(pool, acc.user.email)) throw conflictWithEmail(acc.user.email);
        const plan = planAccount(acc, ids);
        const key = options.create_api_keys ? generateApiKey() : undefined;
        if (!options.dry_run) {
          const eventId = await appender.append('accounts.account.provisioned', userKey(acc.user.email), {
            ...plan,
            api_key: key ? { id: randomUUID(), prefix: key.prefix, secret_hash: key.secretHash, expires_at_us: 0 } : null,
          }, { requestId: req.id, organizationId: plan.organization.id, projectId: plan.project.id });
          await settle(eventId, acc.user.email);
        }
        const a = options.dry_run
          ? { user: plan.user, organization: plan.organization, workspace: plan.workspace, project: { ...plan.project, is_default: true } }
          : await readAccount(pool, plan.user.id, plan.organization.id, plan.workspace.id, plan.project.id);
        const entry: Record<string, unknown> = {
          user: { ...a.user, uid: a.user.id },
          organizations: { org: a.organization },
          workspaces: { wrk: { ...a.workspace, organization_id: plan.organization.id } },
          projects: { prj: { ...a.project, organization_id: plan.organization.id, workspace_id: plan.workspace.id } },
        };
        if (key && options.return_api_keys) entry.api_keys = { key: key.raw };
        out[ref] = entry;
      }
      res.status(200).json({ accounts: out });
    }],
    'admin.accounts.delete': [auth, async (req, res) => {
      const body = validate(adminAccountsDelete, req.body);
      for (const acc of Object.values(body.accounts)) {
        const u = acc.user.id ? await findUserById(pool, acc.user.id) : acc.user.email ? await findUserByEmail(pool, acc.user.email) : undefined;
        if (!u || body.dry_run) continue;
        const eventId = await appender.append('accounts.user.deleted', userKey(u.email), { user_id: u.id, email: u.email }, { requestId: req.id });
        await settle(eventId, u.email);
      }
      res.status(204).end();
    }],
  };
}

function conflictWithEmail(email: string) {
  const e = userExists(email);
  return conflict(e.code, e.message, { email });
}
