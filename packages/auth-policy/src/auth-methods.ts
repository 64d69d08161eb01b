// Which sign-in methods this deployment offers outside any organization's policy, and the method
// patterns an organization's flags allow (reference §3.2 step 3, §3.5).
import { z } from 'zod';

/** Social providers the reference knows by name (`social:<name>`). */
export const SOCIAL_PROVIDERS = [
  'google', 'google-workspaces', 'github', 'facebook', 'apple', 'discord', 'twitter', 'gitlab', 'bitbucket', 'linkedin', 'okta', 'azure-ad', 'boxy-saml',
] as const;

export interface DeploymentMethods {
  /** `email:<method>` offered by the deployment's session service; undefined = none. */
  email?: 'password' | 'otp' | undefined;
  /** `social:<p>` offered by the deployment's session service. */
  social: readonly string[];
}

export const authMethodsEnv = z.object({
  /** E-mail sign-in offered by the session service in front of this backend: `password`, `otp` or `none`. */
  AUTH_EMAIL_METHOD: z.enum(['password', 'otp', 'none']).default('none'),
  /** Comma list of social sign-in providers offered by that session service. */
  AUTH_SOCIAL_PROVIDERS: z.string().optional()
    .transform((s) => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(z.enum(SOCIAL_PROVIDERS))),
});
export type AuthMethodsEnv = z.output<typeof authMethodsEnv>;

export const deploymentMethodsFromEnv = (env: AuthMethodsEnv): DeploymentMethods => ({
  email: env.AUTH_EMAIL_METHOD === 'none' ? undefined : env.AUTH_EMAIL_METHOD,
  social: env.AUTH_SOCIAL_PROVIDERS,
});

/** An organization's auth flags (reference §3.5), as a client sends them (unknown keys refused).
 * Absent keys take their defaults. */
export const organizationAuthFlags = z.strictObject({
  is_demo: z.boolean().optional(),
  allow_email: z.boolean().optional(),
  allow_social: z.boolean().optional(),
  allow_sso: z.boolean().optional(),
  allow_root: z.boolean().optional(),
  domains_only: z.boolean().optional(),
  auto_join: z.boolean().optional(),
});
export type OrganizationAuthFlags = z.infer<typeof organizationAuthFlags>;

/** Flags with no policy key set mean "no policy": everyone may enter (reference §3.2 step 1). */
export const hasPolicy = (flags: OrganizationAuthFlags | null | undefined): flags is OrganizationAuthFlags =>
  flags !== null && flags !== undefined && Object.values(flags).some((v) => v !== undefined);

/** The method patterns the flags allow: `email:*`, `social:*`, `sso:*`. */
export function allowedPatterns(flags: OrganizationAuthFlags, deployment: DeploymentMethods): string[] {
  const out: string[] = [];
  if (flags.allow_email ?? deployment.email !== undefined) out.push('email:*');
  if (flags.allow_social ?? deployment.social.length > 0) out.push('social:*');
  if (flags.allow_sso ?? false) out.push('sso:*');
  return out;
}

/** Exact match, or `prefix:*` matching `prefix:<anything>`. */
export function matchesPattern(identity: string, pattern: string): boolean {
  return pattern.endsWith(':*') ? identity.startsWith(pattern.slice(0, -1)) && identity.length > pattern.length - 1 : identity === pattern;
}

export interface SsoProviderRef { id: string; slug: string; organization_slug: string }

export const thirdPartyId = (organizationSlug: string, providerSlug: string): string => `sso:${organizationSlug}:${providerSlug}`;

export const providerView = (p: SsoProviderRef): { id: string; slug: string; third_party_id: string } =>
  ({ id: p.id, slug: p.slug, third_party_id: thirdPartyId(p.organization_slug, p.slug) });
