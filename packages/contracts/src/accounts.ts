// zod schemas of the admin account bodies (reference accounts §13).
import { z } from 'zod';

const options = z.object({
  dry_run: z.boolean().default(false),
  idempotency_key: z.string().optional(),
  create_identities: z.boolean().optional(),
  create_api_keys: z.boolean().default(true),
  return_api_keys: z.boolean().default(true),
  seed_defaults: z.boolean().default(true),
  reason: z.string().optional(),
}).passthrough();

const named = z.object({ name: z.string().min(1).max(200), slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/).optional() }).passthrough();

export const adminAccountInput = z.object({
  options: options.optional(),
  user: z.object({
    email: z.string().email(),
    username: z.string().max(200).optional(),
    name: z.string().max(200).optional(),
    is_admin: z.boolean().optional(),
    is_root: z.boolean().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
  organization: named.optional(),
  workspace: named.optional(),
  project: named.optional(),
}).passthrough();

export const adminAccountsCreate = z.object({
  options: options.optional(),
  accounts: z.record(z.string(), adminAccountInput).refine((m) => Object.keys(m).length > 0, 'at least one account is required'),
});
export type AdminAccountsCreate = z.infer<typeof adminAccountsCreate>;

export const adminAccountsDelete = z.object({
  accounts: z.record(z.string(), z.object({ user: z.object({ id: z.string().uuid().optional(), email: z.string().email().optional() }) })),
  dry_run: z.boolean().default(false),
  reason: z.string().optional(),
  confirm: z.string().optional(),
});
export type AdminAccountsDelete = z.infer<typeof adminAccountsDelete>;

/** An operator sets or removes a user's role in an organization (our sibling of reference §13). */
const memberRef = z.strictObject({
  organization_id: z.uuid({ error: 'organization_id must be a UUID' }),
  user: z.strictObject({ id: z.uuid().optional(), email: z.email().optional() })
    .refine((u) => u.id !== undefined || u.email !== undefined, 'user needs an id or an email'),
});
export const adminMembershipSet = memberRef.extend({
  role: z.enum(['admin', 'developer', 'editor', 'annotator', 'viewer'], { error: 'role must be one of admin, developer, editor, annotator, viewer' }),
});
export const adminMembershipRemove = memberRef;
