// zod schemas of the organization sign-in answers: verified domains (domainView) and SSO providers
// (providerView, never with the client secret).
import { z } from 'zod';

const uuid = z.uuid();
const iso = z.string();

export const domainResponse = z.object({
  id: uuid,
  /** The domain name itself. */
  slug: z.string(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  flags: z.object({ is_verified: z.boolean() }),
  token: z.string().nullable(),
  created_at: iso,
  updated_at: iso.nullable(),
  organization_id: uuid,
  /** While unverified: the TXT record to publish and until when its token is good. */
  dns: z.object({ type: z.literal('TXT'), name: z.string(), value: z.string(), expires_at: iso }).optional(),
});
/** GET /organizations/domains. */
export const domainsResponse = z.array(domainResponse);

export const providerResponse = z.object({
  id: uuid,
  slug: z.string(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  /** Client-chosen flags beside the two the server keeps. */
  flags: z.object({ is_valid: z.boolean(), is_active: z.boolean() }).catchall(z.boolean()),
  settings: z.object({
    issuer_url: z.string(),
    client_id: z.string(),
    scopes: z.array(z.string()),
    extra: z.record(z.string(), z.unknown()),
    has_client_secret: z.boolean(),
  }),
  created_at: iso,
  updated_at: iso.nullable(),
  organization_id: uuid,
  /** After an update that changed the issuer: the stored client secret was dropped. */
  warnings: z.array(z.object({ code: z.string(), message: z.string() })).optional(),
});
/** GET /organizations/providers. */
export const providersResponse = z.array(providerResponse);
