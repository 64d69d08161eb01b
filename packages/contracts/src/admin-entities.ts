// zod schemas of the operator's entity routes (compat §2.2–§2.3): one user, organization or API key
// at a time, entities named by an EntityRef. Shapes only: which kinds accept which kind of ref, and
// whether the named entity exists, is the handler's (400/404 with the admin error body).
import { z } from 'zod';
import { openObject, text, textRecord, texts, TEXT_LIMITS } from './text.ts';
import { adminOptions, adminUserFields } from './accounts.ts';

/** Exactly one of ref (a key defined earlier in the request), id, slug or email; anything else is 422. */
export const entityRef = z.object({
  ref: texts.id.optional(),
  id: texts.id.optional(),
  slug: texts.slug.optional(),
  email: texts.email.optional(),
}).refine((r) => [r.ref, r.id, r.slug, r.email].filter((x) => x !== undefined).length === 1, 'exactly one of ref, id, slug or email is required');
export type EntityRef = z.infer<typeof entityRef>;

/** Options of the entity routes: keys are made (and shown) only when asked for; defaults are seeded unless told not to. */
export const adminEntityOptions = adminOptions(false);

const options = { options: adminEntityOptions.optional() };

export const adminUserCreate = openObject({
  ...options,
  user: openObject(adminUserFields),
});

export const adminOrganizationCreate = openObject({
  ...options,
  organization: openObject({
    name: text({ min: 1, max: TEXT_LIMITS.name }),
    slug: texts.slug.regex(/^[a-z0-9][a-z0-9-]{0,62}$/, { error: 'slug must be lowercase letters, digits and dashes' }).optional(),
  }),
  owner: entityRef.optional(),
});

export const adminApiKeyCreate = openObject({
  ...options,
  api_key: openObject({ project_ref: entityRef, user_ref: entityRef, name: texts.name.optional(), expires_at: texts.shortText.optional() }),
});

/** Roles a membership may hold; an organization's `owner` changes hands only by a transfer. */
export const membershipRole = z.enum(['owner', 'admin', 'developer', 'editor', 'annotator', 'viewer'], {
  error: 'role must be one of owner, admin, developer, editor, annotator, viewer',
});

/** POST /admin/simple/accounts/{organizations|workspaces|projects}/memberships/ (the reference's body). */
export const adminScopedMembershipCreate = (scope: 'organization' | 'workspace' | 'project') => openObject({
  ...options,
  membership: openObject({ [`${scope}_ref`]: entityRef, user_ref: entityRef, role: membershipRole }),
});

export const adminWorkspaceCreate = openObject({
  ...options,
  workspace: openObject({ name: text({ min: 1, max: TEXT_LIMITS.name }), organization_ref: entityRef }),
});

export const adminProjectCreate = openObject({
  ...options,
  project: openObject({
    name: text({ min: 1, max: TEXT_LIMITS.name }),
    organization_ref: entityRef,
    workspace_ref: entityRef,
    is_default: z.boolean().optional(),
  }),
});

/** A user named by id or e-mail (the transfer's source and target). */
const userByIdOrEmail = z.object({ id: texts.id.optional(), email: texts.email.optional() });

/** POST /admin/simple/accounts/transfer-ownership. */
export const adminTransferOwnership = openObject({
  users: openObject({ source: userByIdOrEmail.optional(), target: userByIdOrEmail.optional() }),
  organizations: textRecord(z.object({ id: texts.id.optional(), slug: texts.slug.optional() })).optional(),
  include_workspaces: z.union([z.literal('all'), z.array(texts.id).max(1000)]).optional(),
  include_projects: z.union([z.literal('all'), z.array(texts.id).max(1000)]).optional(),
  reason: texts.description.optional(),
  recovery: z.boolean().optional(),
});

// POST /admin/accounts/: a graph of entities, each map keyed by a request-local ref that later
// entries name with {"ref": …}. Shapes only; the handler resolves refs in the reference's order.
const named = text({ min: 1, max: TEXT_LIMITS.name });
const refs = <T extends z.ZodType>(value: T) => textRecord(value).optional();
const graphMembership = (scope: 'organization' | 'workspace' | 'project') =>
  refs(openObject({ [`${scope}_ref`]: entityRef, user_ref: entityRef, role: membershipRole }));

export const adminGraphCreate = openObject({
  ...options,
  users: refs(openObject(adminUserFields)),
  user_identities: refs(openObject({
    user_ref: entityRef.optional(), method: texts.shortText, subject: texts.shortText, email: texts.email.optional(),
    password: texts.secret.optional(), verified: z.boolean().optional(),
  })),
  organizations: refs(openObject({
    name: named,
    slug: texts.slug.regex(/^[a-z0-9][a-z0-9-]{0,62}$/, { error: 'slug must be lowercase letters, digits and dashes' }).optional(),
    owner_user_ref: entityRef.optional(),
  })),
  workspaces: refs(openObject({ name: named, organization_ref: entityRef })),
  projects: refs(openObject({ name: named, organization_ref: entityRef, workspace_ref: entityRef, is_default: z.boolean().optional() })),
  organization_memberships: graphMembership('organization'),
  workspace_memberships: graphMembership('workspace'),
  project_memberships: graphMembership('project'),
  api_keys: refs(openObject({ project_ref: entityRef, user_ref: entityRef, name: texts.name.optional(), expires_at: texts.shortText.optional() })),
  subscriptions: refs(openObject({ plan: text({ min: 1, max: 64 }) })),
});
export type AdminGraphCreate = z.infer<typeof adminGraphCreate>;

const ids = z.array(texts.id).max(1000).optional();

/** DELETE /admin/accounts/: what to delete; a dry run (the default) only lists it. */
export const adminGraphDelete = openObject({
  target: openObject({ user_ids: ids, user_emails: z.array(texts.email).max(1000).optional(), organization_ids: ids, workspace_ids: ids, project_ids: ids }),
  dry_run: z.boolean().default(true),
  reason: texts.description.optional(),
  confirm: texts.shortText.optional(),
});
