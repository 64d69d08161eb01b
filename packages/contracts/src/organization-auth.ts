// Organization settings with their auth flags (reference §3.5) and SSO providers (§5): bodies, the
// projected rows and the responses shared by the command side (writes answer with the projected
// resource) and the query side (reads).
import { z } from 'zod';
import { organizationAuthFlags } from '@llm/auth-policy';
import { jsonObject, text, texts, textRecord, TEXT_LIMITS } from './text.ts';

/** Organization and provider slugs: lowercase letters and hyphens (the reference's rule). */
export const authSlug = texts.slug.regex(/^[a-z-]+$/, 'only lowercase letters and hyphens');

export const organizationUpdate = z.strictObject({
  name: text({ min: 1, max: TEXT_LIMITS.name }).optional(),
  slug: authSlug.optional(),
  description: texts.description.nullish(),
  flags: organizationAuthFlags.optional(),
});
export type OrganizationUpdate = z.infer<typeof organizationUpdate>;

export interface OrganizationRow {
  id: string; name: string; slug: string; description: string | null; flags: Record<string, boolean>;
  owner_id: string; created_at: Date; updated_at: Date | null; version: number;
}

export const organizationView = (r: OrganizationRow) => ({
  id: r.id, name: r.name, slug: r.slug, description: r.description, flags: r.flags, owner_id: r.owner_id,
  created_at: r.created_at.toISOString(), updated_at: r.updated_at ? r.updated_at.toISOString() : null,
});

const providerFlags = textRecord(z.boolean()).refine((f) => Object.keys(f).length <= 32, 'at most 32 flags');
const scopes = z.array(texts.shortText.regex(/^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/, 'not an OAuth scope')).max(32);
// Measured only once jsonObject passed (its depth bound): JSON.stringify of a 10^5-deep value overflows the stack.
const extra = jsonObject.pipe(z.record(z.string(), z.unknown()).refine((e) => JSON.stringify(e).length <= 8192, 'extra is larger than 8 KiB'));

export const providerSettings = z.strictObject({
  issuer_url: texts.url,
  client_id: text({ min: 1, max: TEXT_LIMITS.shortText }),
  client_secret: texts.secret,
  scopes: scopes.optional(),
  extra: extra.optional(),
});

export const providerCreate = z.strictObject({
  slug: authSlug,
  name: texts.name.nullish(),
  description: texts.description.nullish(),
  flags: providerFlags.optional(),
  settings: providerSettings,
});
export type ProviderCreate = z.infer<typeof providerCreate>;

export const providerUpdate = z.strictObject({
  slug: authSlug.optional(),
  name: texts.name.nullish(),
  description: texts.description.nullish(),
  flags: providerFlags.optional(),
  /** Merged key by key into the stored settings. */
  settings: providerSettings.partial().optional(),
});
export type ProviderUpdate = z.infer<typeof providerUpdate>;

/** A row of organization_providers (services/projector-accounts/migrations/0004-organization-auth.sql). */
export interface ProviderRow {
  id: string; organization_id: string; slug: string; name: string | null; description: string | null;
  flags: Record<string, boolean>; issuer_url: string; client_id: string; client_secret_sealed: string; scopes: string[];
  extra: Record<string, unknown>; version: number; created_at: Date; updated_at: Date | null;
}

export const DEFAULT_PROVIDER_SCOPES = ['openid', 'profile', 'email'] as const;

/** The response: settings without the client secret, ever (the reference returns it in plaintext). */
export const providerView = (r: ProviderRow) => ({
  id: r.id, slug: r.slug, name: r.name, description: r.description,
  flags: { ...r.flags, is_valid: r.flags.is_valid === true, is_active: r.flags.is_active === true },
  settings: { issuer_url: r.issuer_url, client_id: r.client_id, scopes: r.scopes.length ? r.scopes : [...DEFAULT_PROVIDER_SCOPES], extra: r.extra, has_client_secret: r.client_secret_sealed !== '' },
  created_at: r.created_at.toISOString(), updated_at: r.updated_at ? r.updated_at.toISOString() : null, organization_id: r.organization_id,
});
