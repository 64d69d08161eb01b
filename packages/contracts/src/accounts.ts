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
