// The one reader of users and user_identities (0001-accounts.sql, 0006/0008 identities): the user
// aggregate's state, the users the commands look up by id, e-mail or sign-in identity, and the
// identities a session may show.
import type { UserEvent, UserRef, UserState } from './rules.ts';
import { asUuid, type Queryable } from '../../queryable.ts';
import { readOrganizationBySlug } from '../organization/reads.ts';

export type KnownUser = UserRef;

export interface UserRow { id: string; email: string; name: string; username: string; created_at: Date }

/** What a user event is decided on: the users with its id or e-mail, and the organization with the slug it asks for. */
export function loadUserState(q: Queryable, e: UserEvent): Promise<UserState> {
  switch (e.type) {
    case 'accounts.account.provisioned':
      return loadUsers(q, { ids: [e.payload.user.id], emails: [e.payload.user.email], slugs: [e.payload.organization.slug] });
    case 'accounts.user.created':
      return loadUsers(q, { ids: [e.payload.user.id], emails: [e.payload.user.email] });
    case 'accounts.user.deleted':
      return loadUsers(q, { ids: [e.payload.user_id] });
    case 'accounts.identity.signed_in':
      return loadUsers(q, { ids: [e.payload.user_id], emails: [e.payload.email] });
  }
}

/** The users with these ids or e-mails (without regard to case), and the organizations with these slugs. */
export async function loadUsers(q: Queryable, by: { ids?: string[]; emails?: string[]; slugs?: string[] }): Promise<UserState> {
  const ids = (by.ids ?? []).map(asUuid).filter((x): x is string => x !== null);
  const emails = (by.emails ?? []).filter((x) => x !== '');
  // One query after the other: `q` may be the projector's transaction client, which runs one at a time.
  const users = ids.length + emails.length === 0 ? [] : (await q.query<UserRef>(
      // ARRAY(…) is computed once, so lower(email) = ANY(…) uses the unique index on lower(email).
      `SELECT id::text AS id, email FROM users
        WHERE id = ANY($1::uuid[]) OR lower(email) = ANY(ARRAY(SELECT lower(x) FROM unnest($2::text[]) AS x))
        ORDER BY created_at, id`,
      [ids, emails],
    )).rows;
  const organizations = [];
  for (const slug of new Set(by.slugs ?? [])) organizations.push(await readOrganizationBySlug(q, slug));
  return {
    users,
    organizations: organizations.flatMap((o) => (o ? [{ id: o.id, slug: o.slug, ownerId: o.owner_id }] : [])),
  };
}

/** The ids (as stored) of the users among these that exist. */
export async function existingUsers(q: Queryable, ids: string[]): Promise<string[]> {
  const valid = ids.map(asUuid).filter((x): x is string => x !== null);
  if (valid.length === 0) return [];
  const r = await q.query<{ id: string }>('SELECT id::text AS id FROM users WHERE id = ANY($1::uuid[]) ORDER BY id', [valid]);
  return r.rows.map((x) => x.id);
}

export async function findUserByEmail(q: Queryable, email: string): Promise<KnownUser | undefined> {
  const r = await q.query<KnownUser>('SELECT id::text AS id, email FROM users WHERE lower(email) = lower($1)', [email]);
  return r.rows[0];
}

/** By id as text: a malformed id matches no one. */
export async function findUserById(q: Queryable, id: string): Promise<KnownUser | undefined> {
  const r = await q.query<KnownUser>('SELECT id::text AS id, email FROM users WHERE id::text = $1', [id]);
  return r.rows[0];
}

export async function readUser(q: Queryable, id: string): Promise<UserRow | undefined> {
  const r = await q.query<UserRow>('SELECT id::text AS id, email, name, username, created_at FROM users WHERE id = $1', [asUuid(id)]);
  return r.rows[0];
}

export async function userEmail(q: Queryable, userId: string): Promise<string | undefined> {
  return (await findUserById(q, userId))?.email;
}

/**
 * The user this subject of this issuer was linked to through this provider (`method`), if any. A
 * subject alone names no one: another issuer may hand out the same one (0008-identities-by-issuer.sql).
 */
export async function userByIdentity(q: Queryable, method: string, issuer: string, subject: string): Promise<KnownUser | undefined> {
  const r = await q.query<KnownUser>(
    `SELECT u.id::text AS id, u.email FROM user_identities i JOIN users u ON u.id = i.user_id
      WHERE i.method = $1 AND i.issuer = $2 AND i.subject = $3`,
    [method, issuer, subject],
  );
  return r.rows[0];
}

/** The sign-in methods the user ever used (e.g. `sso:acme:okta`). */
export async function userIdentities(q: Queryable, userId: string): Promise<string[]> {
  const r = await q.query<{ method: string }>('SELECT DISTINCT method FROM user_identities WHERE user_id::text = $1 ORDER BY method', [userId]);
  return r.rows.map((x) => x.method);
}
