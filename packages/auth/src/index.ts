export { generateApiKey, parseApiKey, hashSecret, safeEqual } from './api-key.ts';
export type { GeneratedApiKey } from './api-key.ts';
export { apiKeyAuthenticator, adminAuthenticator } from './authenticate.ts';
export type { Scope, ApiKeyLookup, ApiKeyRecord, ApiKeyAuthenticator, AuthenticatorOptions } from './authenticate.ts';
export { postgresApiKeyLookup } from './postgres-lookup.ts';
export { organizationGuard, NOT_ENTITLED, NOT_A_MEMBER, type OrganizationGuardOptions } from './organization-guard.ts';
export { sessionGate, sessionReader, type SessionGateOptions, type SessionReader } from './session-gate.ts';
export { apiKeyOrSession, type SessionScopeOptions } from './session-scope.ts';
export { ROLES, PERMISSIONS, FORBIDDEN_MESSAGE, can, highestRole, isRole, projectRole, requirePermission, type Role, type Permission } from './permissions.ts';
