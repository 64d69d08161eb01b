export {
  identitySchema,
  sessionIdentitiesUpdateSchema,
  isIdentity,
  parseIdentity,
  parseIdentities,
  ssoIdentity,
  mergeIdentities,
  InvalidIdentitiesError,
  MAX_SESSION_IDENTITIES,
} from './identities.ts';
export type { Identity, ParsedIdentity, IdentityIssue, SessionIdentitiesUpdate } from './identities.ts';
export { createTokenSigner, assertSecrets, MIN_SECRET_BYTES } from './signed-token.ts';
export type { TokenSigner, TokenSignerOptions, TokenRejection, TimedPayload } from './signed-token.ts';
export { parseCookieHeader, parseCookiePairs, getCookieValues, serializeCookie } from './cookies.ts';
export type { CookieAttributes } from './cookies.ts';
export { createSessionCodec, webSessionSchema, DEFAULT_SESSION_TTL_SECONDS, MAX_SESSION_TTL_SECONDS } from './session.ts';
export type { WebSession, NewSession, SessionCodec, SessionCodecOptions, SessionRejection, IssuedSession } from './session.ts';
export { createSsoStateCodec, ssoStateSchema, returnPathSchema, DEFAULT_SSO_STATE_TTL_SECONDS } from './sso-state.ts';
export type { SsoState, NewSsoState, SsoStateCodec, SsoStateCodecOptions, SsoStateRejection } from './sso-state.ts';
export { sessionAuthenticator } from './authenticator.ts';
export type { SessionAuthenticatorOptions, SessionRequest, SessionResponse } from './authenticator.ts';
export { sessionEnv, sessionOptionsFromEnv, sessionAssertionEnv } from './env.ts';
export type { SessionEnv, SessionAssertionEnv } from './env.ts';
export {
  createSessionAssertionVerifier, signSessionAssertion, SESSION_ASSERTION_HEADER, DEFAULT_ASSERTION_TOLERANCE_SECONDS,
} from './session-assertion.ts';
export type { SessionAssertionVerifier, SessionAssertionVerifierOptions, SessionAssertionClaim, AssertionRejection } from './session-assertion.ts';
