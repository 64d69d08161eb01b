// GET /auth/access: does this session satisfy the organization's auth policy (reference §3.2)?
// Pure: the caller reads the organization, its providers and domains, and the session.
import {
  allowedPatterns, hasPolicy, matchesPattern, providerView, thirdPartyId,
  type DeploymentMethods, type OrganizationAuthFlags, type SsoProviderRef,
} from './auth-methods.ts';

export type AccessDenialCode = 'AUTH_UPGRADE_REQUIRED' | 'AUTH_SSO_DENIED' | 'AUTH_DOMAIN_DENIED';

export interface AccessDenial {
  error: AccessDenialCode;
  message: string;
  required_methods: string[];
  session_identities: string[];
  user_identities: string[];
  sso_providers: Array<{ id: string; slug: string; third_party_id: string }>;
  current_domain: string | null;
  allowed_domains: string[];
}

export interface AccessInput {
  organization: { slug: string; flags: OrganizationAuthFlags | null };
  /** The requester is the organization's owner. */
  isOwner: boolean;
  email: string | undefined;
  sessionIdentities: readonly string[];
  userIdentities: readonly string[];
  /** The organization's providers that are active (and valid). */
  activeProviders: readonly SsoProviderRef[];
  /** The organization's verified domains, lower case. */
  verifiedDomains: readonly string[];
  deployment: DeploymentMethods;
}

export type AccessDecision = { ok: true } | { ok: false; denial: AccessDenial };

const emailDomain = (email: string | undefined): string | null => {
  const at = email?.lastIndexOf('@') ?? -1;
  return email && at > 0 ? email.slice(at + 1).toLowerCase() : null;
};

export function evaluateAccess(input: AccessInput): AccessDecision {
  const { organization: org } = input;
  if (!hasPolicy(org.flags)) return { ok: true };
  const flags = org.flags;
  if (input.isOwner && flags.allow_root === true) return { ok: true };

  const deny = (error: AccessDenialCode, message: string, extra: Partial<AccessDenial> = {}): AccessDecision => ({
    ok: false,
    denial: {
      error, message, required_methods: [], session_identities: [...input.sessionIdentities], user_identities: [...input.userIdentities],
      sso_providers: [], current_domain: emailDomain(input.email), allowed_domains: [], ...extra,
    },
  });

  const patterns = allowedPatterns(flags, input.deployment);
  if (patterns.length === 0) return deny('AUTH_UPGRADE_REQUIRED', 'No authentication methods are allowed for this organization');

  // An SSO identity counts only for this organization's active providers: signing in through
  // another organization's identity provider proves nothing here (the reference lets `sso:*` match
  // any organization's provider).
  const ownSso = new Set(input.activeProviders.map((p) => thirdPartyId(org.slug, p.slug)));
  const counts = (identity: string, pattern: string): boolean =>
    matchesPattern(identity, pattern) && (!identity.startsWith('sso:') || ownSso.has(identity));
  const satisfied = input.sessionIdentities.some((id) => patterns.some((p) => counts(id, p)));
  if (!satisfied) {
    const providers = patterns.includes('sso:*') ? input.activeProviders.map(providerView) : [];
    if (input.sessionIdentities.some((id) => id.startsWith('sso:'))) {
      return deny('AUTH_SSO_DENIED', 'SSO is denied for this organization', { required_methods: patterns.filter((p) => p !== 'sso:*'), sso_providers: providers });
    }
    return deny('AUTH_UPGRADE_REQUIRED', 'Additional authentication required', { required_methods: patterns, sso_providers: providers });
  }

  if (flags.domains_only === true) {
    const domain = emailDomain(input.email);
    if (domain === null || !input.verifiedDomains.includes(domain)) {
      return deny('AUTH_DOMAIN_DENIED', `Your email domain '${domain ?? ''}' is not allowed for this organization`, {
        allowed_domains: [...input.verifiedDomains],
      });
    }
  }
  return { ok: true };
}
