// Workspace invitations and member removal (compat §3.1, permission check §3.2):
//   POST /organizations/{id}/workspaces/{ws}/invite          → 200 {url}   (accounts.invitation.created)
//   POST /organizations/{id}/workspaces/{ws}/invite/resend   → 200 {url}   (accounts.invitation.resent)
//   POST /organizations/{id}/workspaces/{ws}/invite/accept   → 200 {message} (accounts.invitation.accepted)
//   DELETE /workspaces/{ws}/users?email=                      → 200 true   (accounts.membership.removed / accounts.invitation.revoked)
// Every event is keyed by the organization (like its memberships), decided by the invitation
// aggregate (@llm/account-model) and answered after the projection has it. There is no mail
// transport: the inviter gets the link to hand on. The link's token is never stored, only its SHA-256.
import { randomBytes, randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  DEFAULT_INVITATION_ROLE, INVITATION_NOT_FOUND, NOT_PENDING, OWNER_NOT_REMOVABLE, WORKSPACE_NOT_FOUND, findUserByEmail, firstProjectOfWorkspace,
  invitationByTokenHash, isMemberByEmail, mayManageWorkspaceMembers, normalEmail, organizationKey, pendingInvitation, readOrganization, readProject,
  readWorkspace, refuse, userEmail, type InvitationRow,
} from '@llm/account-model';
import { hashSecret, type SessionReader } from '@llm/auth';
import { invitationAccept, invitationCreate, invitationResend, workspaceUserRemove } from '@llm/contracts';
import { AppError } from '@llm/errors';
import { validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { AccountCommands } from '../adapters/account-commands.ts';

/** How long an invitation link is good for (a resend starts it again). */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

export const INVITE_FORBIDDEN = 'You do not have permission to perform this action. Please contact your Organization Owner';

export interface InvitationDeps {
  pool: Pool;
  commands: AccountCommands;
  /** The web app's base URL (AUTH_FRONTEND_URL), else the public base URL, else the request's own origin. */
  frontendUrl?: string | undefined;
  publicBaseUrl?: string | undefined;
  /** The API-key authenticator (an `Authorization` header). */
  apiKey: RequestHandler;
  /** The browser session (no `Authorization` header). */
  readSession: SessionReader;
}

const forbidden = (message: string): AppError => new AppError({ code: 'forbidden', kind: 'forbidden', message });
const query = (req: Request, name: string): string | undefined => (typeof req.query[name] === 'string' ? req.query[name] : undefined);

export function invitationRoutes(deps: InvitationDeps, guards: Guards<'member'>): Handlers {
  const { pool, commands } = deps;

  const inviteUrl = (req: Request, token: string, inv: { email: string; organizationId: string; workspaceId: string; projectId: string }): string => {
    const base = (deps.frontendUrl ?? deps.publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`).replace(/\/+$/, '');
    const q = new URLSearchParams({ token, email: inv.email, organization_id: inv.organizationId, workspace_id: inv.workspaceId, project_id: inv.projectId });
    return `${base}/auth?${q.toString()}`;
  };

  /** The organization and its workspace the path names (and the project the query names, in it): 404 otherwise. */
  async function target(req: Request): Promise<{ organizationId: string; workspaceId: string; projectId: string }> {
    const org = await readOrganization(pool, String(req.params.organization_id ?? ''));
    const ws = org ? await readWorkspace(pool, String(req.params.workspace_id ?? '')) : undefined;
    if (!org || !ws || ws.organization_id !== org.id) throw refuse('invitation_workspace_not_found', WORKSPACE_NOT_FOUND);
    const asked = query(req, 'project_id');
    const project = asked !== undefined ? await readProject(pool, asked) : undefined;
    if (asked !== undefined && (!project || project.organization_id !== org.id)) throw refuse('invitation_workspace_not_found', WORKSPACE_NOT_FOUND);
    const projectId = project?.id ?? await firstProjectOfWorkspace(pool, ws.id) ?? '';
    return { organizationId: org.id, workspaceId: ws.id, projectId };
  }

  async function mustManage(req: Request, organizationId: string, workspaceId: string): Promise<void> {
    if (!await mayManageWorkspaceMembers(pool, organizationId, workspaceId, req.scope.userId)) throw forbidden(INVITE_FORBIDDEN);
  }

  const newToken = (): { token: string; hash: string; expiresAtUs: number } => {
    const token = randomBytes(32).toString('base64url');
    return { token, hash: hashSecret(token), expiresAtUs: (Date.now() + INVITATION_TTL_MS) * 1000 };
  };

  const invite: RequestHandler = async (req, res) => {
    const entries = validate(invitationCreate, req.body);
    if (entries.length !== 1) throw refuse('invitation_one_user', 'Only one user can be invited at a time.');
    const t = await target(req);
    await mustManage(req, t.organizationId, t.workspaceId);
    const entry = entries[0]!;
    const email = normalEmail(entry.email);
    if (normalEmail(await userEmail(pool, req.scope.userId) ?? '') === email) throw refuse('invitation_self', 'You cannot invite yourself to a workspace');
    const { token, hash, expiresAtUs } = newToken();
    await commands.run(req, {
      type: 'accounts.invitation.created', key: organizationKey(t.organizationId),
      payload: {
        invitation_id: randomUUID(), organization_id: t.organizationId, workspace_id: t.workspaceId, project_id: t.projectId, email,
        role: entry.roles?.[0] ?? DEFAULT_INVITATION_ROLE, token_hash: hash, expires_at_us: expiresAtUs, inviter_id: req.scope.userId,
      },
      meta: { organizationId: t.organizationId, projectId: t.projectId },
    });
    res.status(200).json({ url: inviteUrl(req, token, { email, ...t }) });
  };

  const resend: RequestHandler = async (req, res) => {
    const body = validate(invitationResend, req.body);
    const t = await target(req);
    await mustManage(req, t.organizationId, t.workspaceId);
    const email = normalEmail(body.email);
    const pending = await pendingInvitation(pool, t.organizationId, email);
    if (!pending) throw refuse('invitation_not_pending', NOT_PENDING);
    const { token, hash, expiresAtUs } = newToken();
    await commands.run(req, {
      type: 'accounts.invitation.resent', key: organizationKey(t.organizationId),
      payload: { invitation_id: pending.id, organization_id: t.organizationId, token_hash: hash, expires_at_us: expiresAtUs },
      meta: { organizationId: t.organizationId, projectId: t.projectId },
    });
    const projectId = pending.project_id ?? t.projectId;
    res.status(200).json({ url: inviteUrl(req, token, { email, organizationId: t.organizationId, workspaceId: pending.workspace_id, projectId }) });
  };

  const accept: RequestHandler = async (req, res) => {
    const body = validate(invitationAccept, req.body);
    const hash = hashSecret(body.token);
    const inv: InvitationRow | undefined = await invitationByTokenHash(pool, hash);
    // A token of another organization or workspace, or given with another e-mail, names nothing here.
    if (!inv || inv.email !== normalEmail(body.email) || inv.organization_id !== String(req.params.organization_id ?? '').toLowerCase()
      || inv.workspace_id !== String(req.params.workspace_id ?? '').toLowerCase()) {
      throw refuse('invitation_not_found', INVITATION_NOT_FOUND);
    }
    await commands.run(req, {
      type: 'accounts.invitation.accepted', key: organizationKey(inv.organization_id),
      payload: { invitation_id: inv.id, organization_id: inv.organization_id, user_id: req.scope.userId, token_hash: hash },
      meta: { organizationId: inv.organization_id, projectId: undefined },
    });
    res.status(200).json({ message: 'Added user to workspace' });
  };

  const remove: RequestHandler = async (req, res) => {
    const q = validate(workspaceUserRemove, req.query, 'query');
    const ws = await readWorkspace(pool, String(req.params.workspace_id ?? ''));
    if (!ws || (q.organization_id !== undefined && q.organization_id.toLowerCase() !== ws.organization_id)) throw refuse('invitation_workspace_not_found', WORKSPACE_NOT_FOUND);
    const org = await readOrganization(pool, ws.organization_id);
    if (!org) throw refuse('invitation_workspace_not_found', WORKSPACE_NOT_FOUND);
    await mustManage(req, org.id, ws.id);
    const email = normalEmail(q.email);
    const user = await findUserByEmail(pool, email);
    if (user && user.id === org.owner_id) throw refuse('owner_not_removable', OWNER_NOT_REMOVABLE);
    const member = user !== undefined && await isMemberByEmail(pool, org.id, email);
    const pending = await pendingInvitation(pool, org.id, email);
    if (!member && !pending) throw refuse('workspace_user_not_found', 'User is not a member of the workspace.');
    const m = { organizationId: org.id, projectId: undefined };
    // The membership first: once it is gone, no accepted invitation can bring the user back, and
    // the pending one is withdrawn next (an acceptance in between is removed by a retry).
    if (member && user) await commands.run(req, { type: 'accounts.membership.removed', key: organizationKey(org.id), payload: { organization_id: org.id, user_id: user.id }, meta: m });
    if (pending) await commands.run(req, { type: 'accounts.invitation.revoked', key: organizationKey(org.id), payload: { organization_id: org.id, email }, meta: m });
    res.status(200).json(true);
  };

  // Accepting is done by someone who is not a member yet: any signed-in user (API key or session),
  // without the guard's project membership check; the invitation names the organization.
  const anyCaller: RequestHandler = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (req.header('authorization') !== undefined) { await deps.apiKey(req, res, next); return; }
    const session = await deps.readSession(req);
    req.scope = { projectId: '', workspaceId: '', organizationId: '', userId: session.user_id, apiKeyId: '' };
    req.session = session;
    next();
  };

  return {
    'organizations.workspaces.invite': [...guards.member, invite],
    'organizations.workspaces.invite.resend': [...guards.member, resend],
    'organizations.workspaces.invite.accept': [anyCaller, accept],
    'workspaces.users.remove': [...guards.member, remove],
  };
}
