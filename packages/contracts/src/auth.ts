// Bodies and queries of the session-based /auth routes (reference §3). The identity grammar and
// the PATCH /auth/session/identities body live with the session code in @llm/web-session.
import { z } from 'zod';
import { returnPathSchema } from '@llm/web-session';
import { text, texts, TEXT_LIMITS } from './text.ts';

export const discoverRequest = z.object({
  email: texts.email,
});
export type DiscoverRequest = z.infer<typeof discoverRequest>;

export const accessQuery = z.object({
  organization_id: text({ min: 1, max: TEXT_LIMITS.id, label: 'organization_id' }),
});

const slug = texts.slug.regex(/^[a-z0-9_-]{1,64}$/, 'must be 1-64 lowercase letters, digits, hyphens or underscores');

/** Path of the SSO routes: `/auth/sso/{start,callback}/{organization_slug}/{provider_slug}`. */
export const ssoPath = z.object({ organization_slug: slug, provider_slug: slug });

/** `sso:<organization_slug>:<provider_slug>`, the third-party id of the session callback. */
export const ssoThirdPartyId = texts.shortText.regex(/^sso:[a-z0-9_-]{1,64}:[a-z0-9_-]{1,64}$/, 'must be sso:<organization_slug>:<provider_slug>')
  .transform((s) => { const [, organization_slug = '', provider_slug = ''] = s.split(':'); return { organization_slug, provider_slug }; });

export const ssoCallbackPath = z.object({ third_party_id: ssoThirdPartyId });

/** Where to send the browser after sign-in: a path on this site (never another host). */
export const ssoStartQuery = z.object({ return_to: returnPathSchema.default('/') });
