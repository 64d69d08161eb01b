// Pure projection of sign-in events (accounts.identity.signed_in, accounts.session.revoked). A
// sign-in is keyed by the user's e-mail like the account's other events, so whether the e-mail is
// taken is decided on one partition, identically on every replay.
import type { DecodedEvent } from '@llm/events';
import type { Projection, SqlStatement } from './projection.ts';

export type IdentityEvent = DecodedEvent<'accounts.identity.signed_in'> | DecodedEvent<'accounts.session.revoked'>;

export interface IdentityFactsNeeded { userId: string; email: string }

export interface IdentityFacts {
  /** A user with this id exists. */
  userExists: boolean;
  /** Id of the user holding this e-mail, if any. */
  emailOwner?: string;
}

export const identityFactsNeeded = (e: IdentityEvent): IdentityFactsNeeded =>
  e.type === 'accounts.identity.signed_in'
    ? { userId: e.payload.user_id, email: e.payload.email }
    : { userId: e.payload.user_id, email: '' };

const VIEWER = 'viewer';

export function projectIdentityEvent(e: IdentityEvent, f: IdentityFacts): Projection {
  const at = new Date(e.timeUs / 1000).toISOString();
  if (e.type === 'accounts.session.revoked') {
    const p = e.payload;
    return {
      status: 'applied',
      statements: [{
        text: `INSERT INTO revoked_sessions (sid, user_id, expires_at, revoked_at) VALUES ($1, $2, $3, $4) ON CONFLICT (sid) DO NOTHING`,
        values: [p.sid, p.user_id, new Date(p.expires_at_us / 1000).toISOString(), at],
      }],
    };
  }
  const p = e.payload;
  const s: SqlStatement[] = [];
  if (p.create_user) {
    if (f.emailOwner !== undefined || f.userExists) return { status: 'rejected', reason: `User with email '${p.email}' already exists.` };
    s.push({
      text: 'INSERT INTO users (id, email, name, username, created_at) VALUES ($1, $2, $3, $4, $5)',
      values: [p.user_id, p.email, p.name, p.email.split('@')[0] ?? '', at],
    });
  } else {
    if (!f.userExists) return { status: 'rejected', reason: 'User not found' };
    if (f.emailOwner !== undefined && f.emailOwner !== p.user_id) return { status: 'rejected', reason: `User with email '${p.email}' already exists.` };
  }
  // A subject is the issuer's: the link is (method, issuer, subject), so the same subject at another
  // issuer is another identity. It stays with the user it was first linked to; a later sign-in only
  // refreshes the time.
  s.push({
    text: `INSERT INTO user_identities (user_id, method, subject, issuer, created_at, last_signed_in_at) VALUES ($1, $2, $3, $4, $5, $5)
           ON CONFLICT (method, issuer, subject) DO UPDATE SET last_signed_in_at = EXCLUDED.last_signed_in_at
           WHERE user_identities.user_id = EXCLUDED.user_id`,
    values: [p.user_id, p.method, p.subject, p.issuer, at],
  });
  if (p.auto_join_organization_id) {
    const org = p.auto_join_organization_id;
    // Viewer of the organization and of everything in it; existing memberships keep their role.
    s.push(
      {
        text: `INSERT INTO memberships (scope, scope_id, user_id, role, created_at)
               SELECT 'organization', id, $2, $3, $4 FROM organizations WHERE id = $1 ON CONFLICT DO NOTHING`,
        values: [org, p.user_id, VIEWER, at],
      },
      {
        text: `INSERT INTO memberships (scope, scope_id, user_id, role, created_at)
               SELECT 'workspace', id, $2, $3, $4 FROM workspaces WHERE organization_id = $1 ON CONFLICT DO NOTHING`,
        values: [org, p.user_id, VIEWER, at],
      },
      {
        text: `INSERT INTO memberships (scope, scope_id, user_id, role, created_at)
               SELECT 'project', id, $2, $3, $4 FROM projects WHERE organization_id = $1 ON CONFLICT DO NOTHING`,
        values: [org, p.user_id, VIEWER, at],
      },
    );
  }
  return { status: 'applied', statements: s };
}
