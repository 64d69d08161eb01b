// POST /auth/discover: the sign-in methods to offer for an e-mail (reference §3.1). It names no
// organization: only method names and SSO provider handles leave this function.
import {
  allowedPatterns, hasPolicy, providerView, type DeploymentMethods, type OrganizationAuthFlags, type SsoProviderRef,
} from './auth-methods.ts';

export interface DiscoverCandidate {
  flags: OrganizationAuthFlags | null;
  /** The organization has the e-mail's domain verified. */
  ownsEmailDomain: boolean;
  /** Its active, valid SSO providers. */
  activeProviders: readonly SsoProviderRef[];
}

export interface DiscoverInput {
  exists: boolean;
  /** The user's organizations, and the one owning the e-mail's verified domain. */
  candidates: readonly DiscoverCandidate[];
  deployment: DeploymentMethods;
}

export interface DiscoverResponse {
  exists: boolean;
  methods: Record<string, true | { providers: Array<{ id: string; slug: string; third_party_id: string }> }>;
}

export function discoverMethods(input: DiscoverInput): DiscoverResponse {
  const patterns = new Set<string>();
  const providers = new Map<string, SsoProviderRef>();
  let enforced = false;
  let governed = false;
  for (const c of input.candidates) {
    if (!hasPolicy(c.flags)) continue;
    governed = true;
    if (c.ownsEmailDomain && c.activeProviders.length > 0) {
      // SSO enforcement: the organization owns this e-mail's domain and signs its people in itself.
      enforced = true;
      patterns.add('sso:*');
      for (const p of c.activeProviders) providers.set(p.slug, p);
      continue;
    }
    for (const p of allowedPatterns(c.flags, input.deployment)) patterns.add(p);
    // Providers are offered only where SSO is allowed: elsewhere signing in with one would be denied.
    if (c.flags.allow_sso === true) for (const p of c.activeProviders) if (!providers.has(p.slug)) providers.set(p.slug, p);
  }
  const sso: DiscoverResponse['methods'] = providers.size > 0 ? { sso: { providers: [...providers.values()].map(providerView) } } : {};
  if (enforced) return { exists: input.exists, methods: { ...sso } };

  const methods: DiscoverResponse['methods'] = {};
  // No organization with a policy: the deployment's own methods.
  const offerEmail = !governed || patterns.has('email:*');
  const offerSocial = !governed || patterns.has('social:*');
  if (offerEmail && input.deployment.email) methods[`email:${input.deployment.email}`] = true;
  if (offerSocial) for (const p of input.deployment.social) methods[`social:${p}`] = true;
  return { exists: input.exists, methods: { ...methods, ...sso } };
}
