// users (with their organization, default workspace and project, owner memberships and first API
// key), user_identities and auto-join memberships from the user aggregate's facts (rules: rules.ts).
import { eventTime } from '../../account-event.ts';
import { sameId } from '../ids.ts';
import type { UserEvent, UserState } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

const VIEWER = 'viewer';

export function projectUser(e: UserEvent, s: UserState): SqlStatement[] {
  const at = eventTime(e);
  switch (e.type) {
    case 'accounts.account.provisioned': {
      const p = e.payload;
      const out: SqlStatement[] = [
        { text: 'INSERT INTO users (id, email, name, username, created_at) VALUES ($1,$2,$3,$4,$5)', values: [p.user.id, p.user.email, p.user.name, p.user.username, at] },
        { text: 'INSERT INTO organizations (id, name, slug, owner_id, created_at) VALUES ($1,$2,$3,$4,$5)', values: [p.organization.id, p.organization.name, p.organization.slug, p.user.id, at] },
        { text: 'INSERT INTO workspaces (id, organization_id, name, slug, created_at) VALUES ($1,$2,$3,$4,$5)', values: [p.workspace.id, p.organization.id, p.workspace.name, p.workspace.slug, at] },
        {
          text: 'INSERT INTO projects (id, workspace_id, organization_id, name, slug, is_default, created_at) VALUES ($1,$2,$3,$4,$5,true,$6)',
          values: [p.project.id, p.workspace.id, p.organization.id, p.project.name, p.project.slug, at],
        },
      ];
      // The plan it starts on (§11 signup), anchored on the day it was created. Events recorded
      // before plans per organization carry none: the deployment's default plan applies.
      if (p.organization.plan) {
        out.push({
          text: 'INSERT INTO organization_subscriptions (organization_id, plan, active, anchor, version, updated_at) VALUES ($1, $2, true, $3, 1, $4)',
          values: [p.organization.id, p.organization.plan, new Date(at).getUTCDate(), at],
        });
      }
      for (const [scope, id] of [['organization', p.organization.id], ['workspace', p.workspace.id], ['project', p.project.id]] as const) {
        out.push({ text: 'INSERT INTO memberships (scope, scope_id, user_id, role, created_at) VALUES ($1,$2,$3,$4,$5)', values: [scope, id, p.user.id, 'owner', at] });
      }
      if (p.api_key && p.api_key.id) {
        const expires = p.api_key.expires_at_us ? new Date(p.api_key.expires_at_us / 1000).toISOString() : null;
        out.push({
          text: 'INSERT INTO api_keys (id, project_id, user_id, prefix, secret_hash, expires_at, created_at) VALUES ($1,$2,$3,$4,$5,$6,$7)',
          values: [p.api_key.id, p.project.id, p.user.id, p.api_key.prefix, p.api_key.secret_hash, expires, at],
        });
      }
      return out;
    }
    case 'accounts.user.created': {
      const u = e.payload.user;
      return [{ text: 'INSERT INTO users (id, email, name, username, created_at) VALUES ($1,$2,$3,$4,$5)', values: [u.id, u.email, u.name, u.username, at] }];
    }
    case 'accounts.user.deleted': {
      // An unknown (or malformed) id deletes nothing: no statement, so no failing cast either.
      const known = s.users.find((u) => sameId(u.id, e.payload.user_id));
      if (!known) return [];
      return [
        // Owned organizations go first (their workspaces, projects and keys cascade), then the user.
        { text: 'DELETE FROM organizations WHERE owner_id = $1', values: [known.id] },
        { text: 'DELETE FROM users WHERE id = $1', values: [known.id] },
      ];
    }
    case 'accounts.identity.signed_in': {
      const p = e.payload;
      const out: SqlStatement[] = [];
      if (p.create_user) {
        out.push({ text: 'INSERT INTO users (id, email, name, username, created_at) VALUES ($1, $2, $3, $4, $5)', values: [p.user_id, p.email, p.name, p.email.split('@')[0] ?? '', at] });
      }
      // A subject is the issuer's: the link is (method, issuer, subject), so the same subject at another
      // issuer is another identity. It stays with the user it was first linked to; a later sign-in only
      // refreshes the time.
      out.push({
        text: `INSERT INTO user_identities (user_id, method, subject, issuer, created_at, last_signed_in_at) VALUES ($1, $2, $3, $4, $5, $5)
               ON CONFLICT (method, issuer, subject) DO UPDATE SET last_signed_in_at = EXCLUDED.last_signed_in_at
               WHERE user_identities.user_id = EXCLUDED.user_id`,
        values: [p.user_id, p.method, p.subject, p.issuer, at],
      });
      if (p.auto_join_organization_id) out.push(...autoJoin(p.auto_join_organization_id, p.user_id, at));
      return out;
    }
  }
}

/** Viewer of the organization and of everything in it; existing memberships keep their role. */
function autoJoin(organizationId: string, userId: string, at: string): SqlStatement[] {
  const values = [organizationId, userId, VIEWER, at];
  return [
    { text: `INSERT INTO memberships (scope, scope_id, user_id, role, created_at)
             SELECT 'organization', id, $2, $3, $4 FROM organizations WHERE id = $1 ON CONFLICT DO NOTHING`, values },
    { text: `INSERT INTO memberships (scope, scope_id, user_id, role, created_at)
             SELECT 'workspace', id, $2, $3, $4 FROM workspaces WHERE organization_id = $1 ON CONFLICT DO NOTHING`, values },
    { text: `INSERT INTO memberships (scope, scope_id, user_id, role, created_at)
             SELECT 'project', id, $2, $3, $4 FROM projects WHERE organization_id = $1 ON CONFLICT DO NOTHING`, values },
  ];
}
