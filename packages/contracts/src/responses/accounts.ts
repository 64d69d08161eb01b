// zod schemas of the account answers most clients read: the current project (the Agenta SDK
// resolves its scope with it), the caller's organizations, the project's API keys, and the admin
// account provisioning answer. Ids are the projection's UUIDs; times are ISO-8601 strings.
import { z } from 'zod';

const uuid = z.uuid();
const iso = z.string();

/** GET /projects/current. */
export const currentProjectResponse = z.object({
  organization_id: uuid,
  organization_name: z.string(),
  workspace_id: uuid,
  workspace_name: z.string(),
  project_id: uuid,
  project_name: z.string(),
  is_default_project: z.boolean(),
  is_demo: z.boolean(),
  /** The caller's role from its most specific membership; absent for a caller with none (an admin key). */
  user_role: z.string().optional(),
});

/** GET /health: the reference's answer, given without credentials while the process serves requests. */
export const healthResponse = z.object({ status: z.literal('ok') });

/** GET /profile: the caller's user (the user an API key was created for, or the signed-in one). */
export const profileResponse = z.object({
  id: uuid,
  /** The reference's sign-in id; here the user's id (no separate sign-in store). */
  uid: z.string(),
  email: z.string(),
  username: z.string(),
  created_at: iso,
  /** Users are never edited here, so this is their creation time. */
  updated_at: iso,
});

/** GET /organizations: the caller's organizations (reference compat §3.1 list shape). */
export const organizationListResponse = z.array(z.object({
  id: uuid,
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  flags: z.record(z.string(), z.boolean()),
  tags: z.null(),
  meta: z.null(),
  owner_id: uuid,
  members: z.array(z.unknown()),
  invitations: z.array(z.unknown()),
  /** The ids of the organization's workspaces the caller belongs to. */
  workspaces: z.array(uuid),
}));

/** GET /organizations/{id}: the organization with its auth flags and default workspace. */
export const organizationResponse = z.object({
  id: uuid,
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  flags: z.record(z.string(), z.boolean()),
  owner_id: uuid,
  created_at: iso,
  updated_at: iso.nullable(),
  workspaces: z.array(uuid),
  default_workspace: z.object({ id: uuid }).nullable(),
});

/** An API key as listed: never its secret. */
export const apiKeyBody = z.object({
  id: uuid,
  prefix: z.string(),
  name: z.string(),
  project_id: uuid,
  created_by: z.string(),
  created_at: iso,
  expires_at: iso.nullable(),
  revoked_at: iso.nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
});
/** GET /keys. */
export const apiKeyListResponse = z.array(apiKeyBody);
/** POST /keys: the created key, with the raw key (shown in this answer only). */
export const apiKeyCreatedResponse = apiKeyBody.extend({ key: z.string() });

const entity = z.looseObject({ id: uuid });

/**
 * POST /admin/simple/accounts: per account reference, the created user, organization, workspace
 * and project (keyed by the local refs `org`, `wrk`, `prj`), the subscription, and the raw API key
 * when one was created and asked for.
 */
export const adminAccountsCreateResponse = z.object({
  accounts: z.record(z.string(), z.object({
    user: z.looseObject({ id: uuid, uid: uuid, email: z.string() }),
    organizations: z.record(z.string(), entity),
    workspaces: z.record(z.string(), entity.extend({ organization_id: uuid })),
    projects: z.record(z.string(), entity.extend({ organization_id: uuid, workspace_id: uuid })),
    subscriptions: z.record(z.string(), z.object({ plan: z.string(), active: z.boolean() })),
    api_keys: z.record(z.string(), z.string()).optional(),
  })),
});
