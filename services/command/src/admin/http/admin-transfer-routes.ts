// POST /admin/simple/accounts/transfer-ownership (compat §2.3): an operator hands the organizations
// of one user (all they own, or those named) to another. Each organization is its own
// accounts.organization.transferred event (the same fact, and the same rules, as an owner's own
// transfer): the target must already be a member, and where both are members — the organization,
// its workspace and projects — the two swap roles. 204 when every organization moved; otherwise 200
// with what moved and one error per organization that did not.
import { findUserByEmail, organizationKey, organizationsOwnedBy, readOrganization, readOrganizationBySlug, readUser } from '@llm/account-model';
import { adminTransferOwnership } from '@llm/contracts';
import { AppError, invalid } from '@llm/errors';
import { statusOf, validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { operatorOrigin, type AccountCommands } from '../../accounts/adapters/account-commands.ts';
import { adminBody, badRef, missing } from './admin-refs.ts';

export interface AdminTransferDeps { pool: Pool; commands: AccountCommands }

interface TransferError { code: string; message: string; details?: Record<string, unknown> }

/** The per-organization codes of the reference for the transfer event's rejections. */
const CODE_OF: Record<string, string> = {
  organization_transfer_owner_only: 'not_owned_by_source',
  organization_transfer_invalid: 'target_not_member',
};

export function adminTransferRoutes(deps: AdminTransferDeps, guards: Guards<'admin'>): Handlers {
  const { pool, commands } = deps;

  async function user(which: 'source' | 'target', ref: { id?: string | undefined; email?: string | undefined } | undefined): Promise<string> {
    if (!ref) throw invalid('invalid_request', `users.${which} is required.`);
    if ((ref.id === undefined) === (ref.email === undefined)) throw badRef(`users.${which}`, 'exactly one of id or email is required');
    const found = ref.id !== undefined ? await readUser(pool, ref.id) : await findUserByEmail(pool, ref.email ?? '');
    if (!found) throw missing('user', ref.id ?? ref.email ?? '');
    return found.id;
  }

  return {
    'admin.transfer_ownership': [...guards.admin, adminBody(async (req, res) => {
      const body = validate(adminTransferOwnership, req.body);
      const source = await user('source', body.users.source);
      const target = await user('target', body.users.target);
      const errors: TransferError[] = [];
      // The organizations named (by id or slug), or every one the source owns.
      const named: Array<{ key: string; id?: string }> = [];
      if (body.organizations === undefined) {
        for (const id of await organizationsOwnedBy(pool, source)) named.push({ key: id, id });
      } else {
        for (const [key, ref] of Object.entries(body.organizations)) {
          const org = ref.id !== undefined ? await readOrganization(pool, ref.id) : ref.slug !== undefined ? await readOrganizationBySlug(pool, ref.slug) : undefined;
          if (org) named.push({ key, id: org.id });
          else errors.push({ code: 'organization_not_found', message: `Organization not found: ${ref.id ?? ref.slug ?? key}.`, details: { key } });
        }
      }
      const transferred: string[] = [];
      for (const { key, id } of named) {
        if (id === undefined) continue;
        try {
          await commands.run(operatorOrigin(req), {
            type: 'accounts.organization.transferred', key: organizationKey(id),
            payload: { organization_id: id, from_user_id: source, to_user_id: target }, meta: { organizationId: id },
          });
          transferred.push(id);
        } catch (err) {
          if (!(err instanceof AppError) || statusOf(err.kind) >= 500) throw err;
          errors.push({ code: CODE_OF[err.code] ?? err.code, message: err.message, details: { key, organization_id: id } });
        }
      }
      if (errors.length === 0) {
        res.status(204).end();
        return;
      }
      res.status(200).json({ transferred, errors });
    })],
  };
}
