// API keys of the caller's project (/keys): create (the raw key is in this one response), list
// (never a secret), revoke.
import { z } from 'zod';
import { text, texts } from './text.ts';

const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

export const apiKeyCreate = z.strictObject({
  /** Shorter than other names: it is shown in key lists beside the prefix. */
  name: text({ max: 100 }).optional(),
  /** ISO 8601 with a time zone; must lie in the future (within ten years). Absent: never expires. */
  expires_at: z.iso.datetime({ offset: true, error: 'expires_at must be an ISO 8601 date-time with a time zone' })
    .refine((s) => Date.parse(s) > Date.now(), 'expires_at must be in the future')
    .refine((s) => Date.parse(s) < Date.now() + TEN_YEARS_MS, 'expires_at must be within ten years')
    .optional(),
}).default({});
export type ApiKeyCreate = z.infer<typeof apiKeyCreate>;

/** `DELETE /keys/{key_id}`: a key's id or its prefix (looked up as text, so it must be storable). */
export const apiKeyPath = z.object({ key_id: texts.id.min(1) });

/** A row of api_keys (0001-accounts.sql, 0005-api-key-names.sql), without its hash. */
export interface ApiKeyRow {
  id: string; project_id: string; user_id: string; prefix: string; name: string;
  created_at: Date; expires_at: Date | null; revoked_at: Date | null;
}

export const apiKeyView = (r: ApiKeyRow, now = Date.now()) => ({
  id: r.id, prefix: r.prefix, name: r.name, project_id: r.project_id, created_by: r.user_id,
  created_at: r.created_at.toISOString(), expires_at: r.expires_at?.toISOString() ?? null, revoked_at: r.revoked_at?.toISOString() ?? null,
  status: r.revoked_at ? 'revoked' : r.expires_at && r.expires_at.getTime() <= now ? 'expired' : 'active',
});
