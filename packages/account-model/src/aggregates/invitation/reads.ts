// The one reader of invitations (0016-invitations.sql; written by projector-accounts only): the
// invitation aggregate's state, the invitation a token names, the pending invitation of an e-mail,
// and who may invite into or remove from an organization's workspace (compat §3.2).
import { normalEmail, type InvitationEvent, type InvitationRef, type InvitationState } from './rules.ts';
import { asUuid, type Queryable } from '../../queryable.ts';

export interface InvitationRow {
  id: string; organization_id: string; workspace_id: string; project_id: string | null; email: string; role: string;
  token_hash: string; expires_at: Date; accepted_at: Date | null;
}

const COLUMNS = `id::text AS id, organization_id::text AS organization_id, workspace_id::text AS workspace_id, project_id::text AS project_id,
  email, role, token_hash, expires_at, accepted_at`;

const asRef = (r: InvitationRow): InvitationRef => ({
  id: r.id, organizationId: r.organization_id, email: r.email, role: r.role, tokenHash: r.token_hash,
  expiresAtUs: r.expires_at.getTime() * 1000, accepted: r.accepted_at !== null,
});

/** What an invitation event is decided on: its organization, and what the event names in it. */
export async function loadInvitationState(q: Queryable, e: InvitationEvent): Promise<InvitationState> {
  const orgId = asUuid(e.payload.organization_id);
  const state: InvitationState = { organizations: [], workspaces: [], users: [], memberEmails: [], invitations: [] };
  if (orgId === null) return state;
  // One query after the other: `q` may be the projector's transaction client.
  state.organizations = (await q.query<{ id: string }>('SELECT id::text AS id FROM organizations WHERE id = $1', [orgId])).rows;
  switch (e.type) {
    case 'accounts.invitation.created': {
      const p = e.payload;
      const email = normalEmail(p.email);
      state.workspaces = (await q.query<{ id: string; organizationId: string }>(
        'SELECT id::text AS id, organization_id::text AS "organizationId" FROM workspaces WHERE id = $1', [asUuid(p.workspace_id)],
      )).rows;
      if (await isMemberByEmail(q, orgId, email)) state.memberEmails = [{ organizationId: orgId, email }];
      state.invitations = (await q.query<InvitationRow>(
        `SELECT ${COLUMNS} FROM invitations WHERE id = $1 OR (organization_id = $2 AND email = $3 AND accepted_at IS NULL)`,
        [asUuid(p.invitation_id), orgId, email],
      )).rows.map(asRef);
      return state;
    }
    case 'accounts.invitation.resent':
    case 'accounts.invitation.accepted': {
      state.invitations = (await q.query<InvitationRow>(`SELECT ${COLUMNS} FROM invitations WHERE id = $1`, [asUuid(e.payload.invitation_id)])).rows.map(asRef);
      if (e.type === 'accounts.invitation.accepted') {
        state.users = (await q.query<{ id: string; email: string }>('SELECT id::text AS id, email FROM users WHERE id = $1', [asUuid(e.payload.user_id)])).rows;
      }
      return state;
    }
    case 'accounts.invitation.revoked':
      state.invitations = (await q.query<InvitationRow>(
        `SELECT ${COLUMNS} FROM invitations WHERE organization_id = $1 AND email = $2 AND accepted_at IS NULL`, [orgId, normalEmail(e.payload.email)],
      )).rows.map(asRef);
      return state;
  }
}

// A role anywhere in the organization's tree (the organization, one of its workspaces or projects).
const IN_ORGANIZATION = `(m.scope = 'organization' AND m.scope_id = $1)
  OR (m.scope = 'workspace' AND m.scope_id IN (SELECT id FROM workspaces WHERE organization_id = $1))
  OR (m.scope = 'project' AND m.scope_id IN (SELECT id FROM projects WHERE organization_id = $1))`;

/** Whether the user with this e-mail holds a role anywhere in the organization. */
export async function isMemberByEmail(q: Queryable, organizationId: string, email: string): Promise<boolean> {
  const r = await q.query(
    `SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id WHERE lower(u.email) = $2 AND (${IN_ORGANIZATION}) LIMIT 1`,
    [asUuid(organizationId), normalEmail(email)],
  );
  return r.rows.length > 0;
}

/** The invitation a token names (by the token's hash). */
export async function invitationByTokenHash(q: Queryable, tokenHash: string): Promise<InvitationRow | undefined> {
  return (await q.query<InvitationRow>(`SELECT ${COLUMNS} FROM invitations WHERE token_hash = $1`, [tokenHash])).rows[0];
}

/** The pending (not accepted) invitation of an e-mail in the organization. */
export async function pendingInvitation(q: Queryable, organizationId: string, email: string): Promise<InvitationRow | undefined> {
  return (await q.query<InvitationRow>(
    `SELECT ${COLUMNS} FROM invitations WHERE organization_id = $1 AND email = $2 AND accepted_at IS NULL`, [asUuid(organizationId), normalEmail(email)],
  )).rows[0];
}

/**
 * Whether the user may invite into or remove from the workspace (compat §3.2): a role in the
 * organization itself, and then its owner, or `owner` / exactly `admin` in the organization, the
 * workspace or the workspace's first project (a `developer` may not).
 */
export async function mayManageWorkspaceMembers(q: Queryable, organizationId: string, workspaceId: string, userId: string): Promise<boolean> {
  const r = await q.query<{ scope: string; role: string; is_owner: boolean }>(
    `SELECT m.scope, m.role, o.owner_id::text = $3 AS is_owner FROM memberships m JOIN organizations o ON o.id = $1
      WHERE m.user_id::text = $3 AND ((m.scope = 'organization' AND m.scope_id = $1) OR (m.scope = 'workspace' AND m.scope_id = $2)
         OR (m.scope = 'project' AND m.scope_id = (SELECT id FROM projects WHERE workspace_id = $2 ORDER BY is_default DESC, created_at, id LIMIT 1)))`,
    [asUuid(organizationId), asUuid(workspaceId), userId],
  );
  if (!r.rows.some((x) => x.scope === 'organization')) return false;
  return r.rows.some((x) => x.is_owner || x.role === 'owner' || x.role === 'admin');
}

/** The first project of a workspace (the default first): the project an invitation link names when none was given. */
export async function firstProjectOfWorkspace(q: Queryable, workspaceId: string): Promise<string | undefined> {
  const r = await q.query<{ id: string }>(
    'SELECT id::text AS id FROM projects WHERE workspace_id = $1 ORDER BY is_default DESC, created_at, id LIMIT 1', [asUuid(workspaceId)],
  );
  return r.rows[0]?.id;
}
