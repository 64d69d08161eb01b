// zod schemas of the admin account bodies (reference accounts §13).
import { z } from 'zod';
import { jsonObject, openObject, text, texts, textRecord, TEXT_LIMITS } from './text.ts';

/** The admin routes' `Options` (compat §2.2); whether API keys are made and shown by default differs per route. */
export const adminOptions = (keys: boolean) => openObject({
  dry_run: z.boolean().default(false),
  idempotency_key: texts.id.optional(),
  create_identities: z.boolean().optional(),
  create_api_keys: z.boolean().default(keys),
  return_api_keys: z.boolean().default(keys),
  seed_defaults: z.boolean().default(true),
  reason: texts.description.optional(),
});

// POST /admin/simple/accounts/: keys are made and shown unless told otherwise (§2.4).
const options = adminOptions(true);

const named = openObject({
  name: text({ min: 1, max: TEXT_LIMITS.name }),
  slug: texts.slug.regex(/^[a-z0-9][a-z0-9-]{0,62}$/).optional(),
});

/** A user as the admin routes take it (compat §2.2), shared by account and entity creation. */
export const adminUserFields = {
  email: texts.email,
  username: texts.name.optional(),
  name: texts.name.optional(),
  is_admin: z.boolean().optional(),
  is_root: z.boolean().optional(),
  metadata: jsonObject.optional(),
};

export const adminAccountInput = openObject({
  options: options.optional(),
  user: z.object(adminUserFields),
  organization: named.optional(),
  workspace: named.optional(),
  project: named.optional(),
  /** The organization's plan (EE); absent = the signup plan. Must be a plan of the catalog (400 otherwise). */
  subscription: openObject({ plan: text({ min: 1, max: 64 }) }).optional(),
});

export const adminAccountsCreate = z.object({
  options: options.optional(),
  accounts: textRecord(adminAccountInput).refine((m) => Object.keys(m).length > 0, 'at least one account is required'),
});
export type AdminAccountsCreate = z.infer<typeof adminAccountsCreate>;

export const adminAccountsDelete = z.object({
  accounts: textRecord(z.object({ user: z.object({ id: z.uuid().optional(), email: texts.email.optional() }) })),
  dry_run: z.boolean().default(false),
  reason: texts.description.optional(),
  confirm: texts.shortText.optional(),
});
export type AdminAccountsDelete = z.infer<typeof adminAccountsDelete>;

/** An operator sets or removes a user's role in an organization (our sibling of reference §13). */
const memberRef = z.strictObject({
  organization_id: z.uuid({ error: 'organization_id must be a UUID' }),
  user: z.strictObject({ id: z.uuid().optional(), email: texts.email.optional() })
    .refine((u) => u.id !== undefined || u.email !== undefined, 'user needs an id or an email'),
});
export const adminMembershipSet = memberRef.extend({
  role: z.enum(['admin', 'developer', 'editor', 'annotator', 'viewer'], { error: 'role must be one of admin, developer, editor, annotator, viewer' }),
});
export const adminMembershipRemove = memberRef;
