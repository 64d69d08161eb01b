export {
  SOCIAL_PROVIDERS, authMethodsEnv, deploymentMethodsFromEnv, organizationAuthFlags, hasPolicy, allowedPatterns, matchesPattern,
  thirdPartyId, providerView,
} from './auth-methods.ts';
export type { AuthMethodsEnv, DeploymentMethods, OrganizationAuthFlags, SsoProviderRef } from './auth-methods.ts';
export { evaluateAccess } from './access-policy.ts';
export type { AccessDecision, AccessDenial, AccessDenialCode, AccessInput } from './access-policy.ts';
export { discoverMethods } from './discover.ts';
export type { DiscoverCandidate, DiscoverInput, DiscoverResponse } from './discover.ts';
