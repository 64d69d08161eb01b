// zod schemas of the answers of the sign-in, organization-lifecycle and operator (admin) routes, as
// their handlers build them (services/query/src/http/auth-routes.ts, services/command/src/{accounts,admin}/http/
// session-routes.ts, organization-*-routes.ts, admin-*-routes.ts, membership-routes.ts). The
// OpenAPI document describes these routes with them, and the end-to-end suite checks every answer
// against the document. Ids are UUIDs; times are ISO-8601 strings.
import { z } from 'zod';

const uuid = z.uuid();
const iso = z.string();

const ssoProvider = z.object({ id: z.string(), slug: z.string(), third_party_id: z.string() });

/** POST /auth/discover: whether the e-mail has an account, and the sign-in methods to offer it. */
export const discoverResponse = z.object({
  exists: z.boolean(),
  /** `email:<method>` / `social:<provider>` → true; `sso` → the providers to offer. */
  methods: z.record(z.string(), z.union([z.literal(true), z.object({ providers: z.array(ssoProvider) })])),
});

/** GET /auth/access: the session satisfies the organization's auth policy (a 403 names what is missing). */
export const accessResponse = z.object({ ok: z.literal(true) });

/** GET /auth/session: the signed-in user and the identities this session proved. */
export const sessionResponse = z.object({
  user_id: uuid,
  email: z.string().nullable(),
  session_identities: z.array(z.string()),
  user_identities: z.array(z.string()),
  issued_at: iso,
  expires_at: iso,
});

/** PATCH /auth/session/identities: the session's identities after the merge, and before. */
export const sessionIdentitiesResponse = z.object({
  session_identities: z.array(z.string()),
  previous: z.array(z.string()),
});

/** PATCH/PUT /organizations/{id}: the organization after the change. */
export const organizationUpdatedResponse = z.object({
  id: uuid,
  name: z.string(),
  slug: z.string().nullable(),
  description: z.string().nullable(),
  flags: z.record(z.string(), z.unknown()).nullable(),
  owner_id: uuid,
  created_at: iso,
  updated_at: iso.nullable(),
});

/** POST /organizations (201): the new organization. */
export const organizationCreatedResponse = z.object({ id: uuid, name: z.string(), description: z.string().nullable() });

/** A confirmation in words (DELETE /organizations/{id}). */
export const detailMessage = z.object({ detail: z.string() });

/** POST /organizations/{id}/transfer/{new_owner_id}. */
export const organizationTransferredResponse = z.object({ organization_id: uuid, owner_id: uuid });

/** An entity map of an admin answer: a local name (`user`, `org`, `prj`, …) → the entity, which always has an id. */
const entities = z.record(z.string(), z.looseObject({ id: z.string() }));

/** One account set of an admin answer (compat §2.2): the entities the call created or touched, by kind. */
const adminAccountSet = z.looseObject({
  users: entities, user_identities: entities, organizations: entities, workspaces: entities, projects: entities,
  organization_memberships: entities, workspace_memberships: entities, project_memberships: entities, api_keys: entities,
}).partial();

const adminItemError = z.looseObject({ code: z.string(), message: z.string() });

/** The admin creations (users, organizations, workspaces, projects, API keys, memberships, graphs). */
export const adminAccountSetResponse = z.object({
  accounts: z.array(adminAccountSet),
  /** POST /admin/simple/accounts/organizations/memberships also names the membership it set. */
  membership: z.object({ organization_id: uuid, user_id: uuid, role: z.string() }).optional(),
  /** POST /admin/accounts: the entities that could not be created. */
  errors: z.array(adminItemError).optional(),
});

/** The admin deletions: what went, by kind (`dry_run` is true when nothing was changed). */
export const adminDeletedResponse = z.object({
  dry_run: z.boolean(),
  deleted: z.record(z.string(), z.array(z.object({ id: z.string() }))),
  skipped: z.array(z.unknown()).optional(),
  errors: z.array(adminItemError).optional(),
});

/** POST /admin/simple/accounts/transfer-ownership when some organizations could not move (204 when all did). */
export const adminTransferResponse = z.object({ transferred: z.array(uuid), errors: z.array(adminItemError) });
