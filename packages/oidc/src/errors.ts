// Typed refusals of a sign-in. Refusals are `unauthenticated` (the browser should start over);
// provider trouble is `unavailable` (misconfiguration or an outage, nothing the user can fix).
import { AppError } from '@llm/errors';

export type OidcErrorCode =
  /** The callback's `state` is absent or not the one this browser was sent off with. */
  | 'state_mismatch'
  /** The provider answered the authorization request with `error=` (e.g. the user denied consent). */
  | 'provider_error'
  /** The token endpoint refused the code: unknown, expired, already used, or the PKCE verifier is wrong. */
  | 'invalid_code'
  /** The ID token's `nonce` is not the one sent. */
  | 'nonce_mismatch'
  /** The ID token failed verification: signature, issuer, audience, lifetime. */
  | 'id_token_invalid'
  /** Required claims are missing or malformed. */
  | 'claims_invalid'
  /** The provider's metadata cannot be fetched or is unusable. */
  | 'discovery_failed'
  /** The token endpoint failed otherwise (e.g. `invalid_client`: wrong client secret). */
  | 'token_request_failed'
  | 'userinfo_failed'
  /** A protocol violation by the provider not covered above. */
  | 'invalid_response'
  /** Network failure or timeout talking to the provider (or the outbound guard refused it). */
  | 'unreachable';

const REFUSALS = new Set<OidcErrorCode>(['state_mismatch', 'provider_error', 'invalid_code', 'nonce_mismatch', 'id_token_invalid', 'claims_invalid']);

export class OidcError extends AppError {
  declare readonly code: OidcErrorCode;

  constructor(code: OidcErrorCode, message: string, options: { details?: unknown; cause?: unknown } = {}) {
    super({
      code,
      kind: REFUSALS.has(code) ? 'unauthenticated' : 'unavailable',
      message,
      retryable: code === 'unreachable',
      details: options.details,
      cause: options.cause,
    });
    this.name = 'OidcError';
  }
}
