// SSO sign-in over OIDC with openid-client: the authorization-code flow with PKCE (S256), `state`
// and `nonce`, for a confidential client.
//
// startSignIn builds the authorization URL and returns the checks the caller must keep (in the
// signed SSO state cookie) until the callback. finishSignIn refuses the callback unless it carries
// that state, exchanges the code with the verifier, verifies the ID token (signature against the
// provider's JWKS, issuer, audience, lifetime, nonce) and returns the user's claims.
import { createHash, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import { z } from 'zod';
import { discoverProvider, type ProviderMetadata } from './discovery.ts';
import { OidcError } from './errors.ts';
import { defaultFetch, type FetchLike } from './fetch-like.ts';
import { revealSecret, type SecretValue } from './secret-value.ts';

export const DEFAULT_SCOPES: readonly string[] = ['openid', 'profile', 'email'];

export interface OidcClientOptions {
  /** The issuer URL (discovered on each call), or metadata already returned by `discoverProvider`. */
  issuer: string | ProviderMetadata;
  clientId: string;
  /** The redirect URI registered at the provider (the SSO callback route). */
  redirectUri: string;
  fetch?: FetchLike;
  /** Permit http:// endpoints (tests and local development only). */
  allowInsecure?: boolean;
  /** Per-request timeout. Default 10 s. */
  timeoutMs?: number;
}

export interface StartSignInOptions extends OidcClientOptions {
  /** Default `openid profile email`; `openid` is always included. */
  scopes?: readonly string[];
  /** Extra authorization parameters such as `login_hint` or `prompt`; cannot override the checks. */
  extraParams?: Readonly<Record<string, string>>;
}

/** What the callback must match; keep it server-side or in a signed, httpOnly cookie. */
export interface SignInChecks {
  state: string;
  nonce: string;
  code_verifier: string;
}

export interface StartedSignIn {
  /** Send the browser here. */
  url: string;
  checks: SignInChecks;
  metadata: ProviderMetadata;
}

export interface FinishSignInOptions extends OidcClientOptions {
  clientSecret: string | SecretValue;
  /**
   * The URL the provider redirected the browser to: absolute, or relative (e.g. express's
   * `req.originalUrl`, resolved against `redirectUri`). Only its query is used.
   */
  callbackUrl: string | URL;
  expected: SignInChecks;
  /** Default: `client_secret_basic` unless the provider only supports `client_secret_post`. */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post';
}

export interface VerifiedClaims {
  issuer: string;
  sub: string;
  email?: string;
  email_verified: boolean;
  name?: string;
}

const RESERVED_PARAMS = new Set(['state', 'nonce', 'code_challenge', 'code_challenge_method', 'redirect_uri', 'client_id', 'response_type', 'scope']);

async function resolveMetadata(options: OidcClientOptions): Promise<ProviderMetadata> {
  if (typeof options.issuer !== 'string') return options.issuer;
  const discovered = await discoverProvider(options.issuer, {
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.allowInsecure !== undefined && { allowInsecure: options.allowInsecure }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
  });
  if (!discovered.ok) {
    throw new OidcError(discovered.error.kind === 'unreachable' ? 'unreachable' : 'discovery_failed', discovered.error.message, { details: { discovery: discovered.error } });
  }
  return discovered.value;
}

function configure(metadata: ProviderMetadata, options: OidcClientOptions, auth?: { secret: string; method: 'client_secret_basic' | 'client_secret_post' }): client.Configuration {
  const clientAuth = auth ? (auth.method === 'client_secret_post' ? client.ClientSecretPost(auth.secret) : client.ClientSecretBasic(auth.secret)) : client.None();
  const config = new client.Configuration(metadata as client.ServerMetadata, options.clientId, undefined, clientAuth);
  const doFetch = options.fetch ?? defaultFetch;
  config[client.customFetch] = (url, init) => doFetch(url, init);
  config.timeout = Math.max(1, Math.ceil((options.timeoutMs ?? 10_000) / 1000));
  if (options.allowInsecure) client.allowInsecureRequests(config);
  return config;
}

export async function startSignIn(options: StartSignInOptions): Promise<StartedSignIn> {
  const metadata = await resolveMetadata(options);
  const checks: SignInChecks = { state: client.randomState(), nonce: client.randomNonce(), code_verifier: client.randomPKCECodeVerifier() };
  const scopes = [...new Set(['openid', ...(options.scopes?.length ? options.scopes : DEFAULT_SCOPES)])];
  const extra = Object.entries(options.extraParams ?? {}).filter(([k]) => !RESERVED_PARAMS.has(k));
  const url = client.buildAuthorizationUrl(configure(metadata, options), {
    ...Object.fromEntries(extra),
    response_type: 'code',
    redirect_uri: options.redirectUri,
    scope: scopes.join(' '),
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(checks.code_verifier),
    code_challenge_method: 'S256',
  });
  return { url: url.href, checks, metadata };
}

const claimsSchema = z.object({
  sub: z.string().min(1).max(255),
  email: z.string().email().max(320).optional(),
  // Some providers send the string "true"; anything else unverifiable counts as unverified.
  email_verified: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).optional(),
  name: z.string().max(512).optional(),
});

/** Constant-time equality of two strings of any length. */
function sameSecretString(a: string, b: string): boolean {
  const h = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(h(a), h(b));
}

export async function finishSignIn(options: FinishSignInOptions): Promise<VerifiedClaims> {
  let params: URLSearchParams;
  try {
    params = new URL(options.callbackUrl, options.redirectUri).searchParams;
  } catch {
    throw new OidcError('invalid_response', 'callback URL is not a URL');
  }
  // Checked before anything touches the network: a forged or stale callback costs nothing.
  const state = params.get('state');
  if (state === null || !sameSecretString(state, options.expected.state)) {
    throw new OidcError('state_mismatch', 'the callback state does not match this sign-in');
  }
  const providerError = params.get('error');
  if (providerError !== null) {
    throw new OidcError('provider_error', `the identity provider refused the sign-in: ${providerError.slice(0, 100)}`, {
      details: { error: providerError.slice(0, 100), error_description: params.get('error_description')?.slice(0, 300) },
    });
  }

  const metadata = await resolveMetadata(options);
  if (typeof metadata.jwks_uri !== 'string') {
    throw new OidcError('discovery_failed', 'the provider publishes no jwks_uri, so its ID tokens cannot be verified');
  }
  const methods = Array.isArray(metadata.token_endpoint_auth_methods_supported) ? (metadata.token_endpoint_auth_methods_supported as unknown[]) : undefined;
  const method = options.tokenEndpointAuthMethod ?? (methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post') ? 'client_secret_post' : 'client_secret_basic');
  const config = configure(metadata, options, { secret: revealSecret(options.clientSecret), method });
  // Verify ID token signatures against the provider's keys even though they arrive over TLS from
  // the token endpoint: the transport is the injected fetch, and we do not take it on trust.
  client.enableNonRepudiationChecks(config);

  // The code was issued for the registered redirect URI; present the callback's parameters there,
  // whichever of our routes the browser finally landed on.
  const currentUrl = new URL(options.redirectUri);
  currentUrl.search = params.toString();

  let idClaims: client.IDToken | undefined;
  let accessToken: string;
  try {
    const tokens = await client.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: options.expected.code_verifier,
      expectedState: options.expected.state,
      expectedNonce: options.expected.nonce,
      idTokenExpected: true,
    });
    idClaims = tokens.claims();
    accessToken = tokens.access_token;
  } catch (err) {
    throw toOidcError(err);
  }
  if (!idClaims) throw new OidcError('id_token_invalid', 'the token response carried no ID token');

  let merged: Record<string, unknown> = { ...idClaims };
  if (idClaims.email === undefined && typeof metadata.userinfo_endpoint === 'string') {
    try {
      // openid-client checks that userinfo's `sub` is the ID token's.
      const userinfo = await client.fetchUserInfo(config, accessToken, idClaims.sub);
      merged = { ...userinfo, ...idClaims };
    } catch (err) {
      const mapped = toOidcError(err);
      throw mapped.code === 'unreachable' ? mapped : new OidcError('userinfo_failed', 'the userinfo request failed', { cause: err });
    }
  }
  const claims = claimsSchema.safeParse(merged);
  if (!claims.success) {
    throw new OidcError('claims_invalid', `the provider's claims are unusable: ${claims.error.issues.map((i) => i.path.join('.')).join(', ')}`);
  }
  const { sub, email, email_verified, name } = claims.data;
  return {
    issuer: metadata.issuer,
    sub,
    ...(email !== undefined && { email }),
    email_verified: email !== undefined && email_verified === true,
    ...(name !== undefined && { name }),
  };
}

function causes(err: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e: unknown = err; e !== undefined && chain.length < 5; e = (e as { cause?: unknown } | null)?.cause) chain.push(e);
  return chain;
}

/** Maps openid-client's failures onto our codes; messages never include tokens or secrets. */
export function toOidcError(err: unknown): OidcError {
  if (err instanceof OidcError) return err;
  if (err instanceof client.AuthorizationResponseError) {
    return new OidcError('provider_error', `the identity provider refused the sign-in: ${err.error}`, { details: { error: err.error } });
  }
  if (err instanceof client.ResponseBodyError) {
    return err.error === 'invalid_grant'
      ? new OidcError('invalid_code', 'the authorization code was refused (expired, already used, or the PKCE verifier does not match)', { cause: err })
      : new OidcError('token_request_failed', `the token request failed: ${err.error}`, { cause: err, details: { error: err.error } });
  }
  if (err instanceof client.WWWAuthenticateChallengeError) {
    // A 401 with a challenge: the provider does not accept our client credentials (or the token).
    const error = err.cause.map((c) => c.parameters.error).find((e) => typeof e === 'string') ?? `HTTP ${err.status}`;
    return new OidcError('token_request_failed', `the identity provider refused our credentials: ${error}`, { details: { error } });
  }
  if (err instanceof client.ClientError) {
    const chain = causes(err);
    const claim = chain.map((e) => (e as { claim?: unknown } | null)?.claim).find((c) => typeof c === 'string');
    if (err.code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' && claim === 'nonce') {
      return new OidcError('nonce_mismatch', 'the ID token nonce does not match this sign-in', { cause: err });
    }
    const messages = chain.map((e) => (e instanceof Error ? e.message : '')).join(' ');
    if (
      ['OAUTH_JWT_CLAIM_COMPARISON_FAILED', 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED', 'OAUTH_KEY_SELECTION_FAILED'].includes(err.code ?? '') ||
      /JWT|ID Token|signature/i.test(messages)
    ) {
      return new OidcError('id_token_invalid', 'the ID token failed verification', { cause: err });
    }
    return new OidcError('invalid_response', `the identity provider's response was invalid (${err.code ?? 'unknown'})`, { cause: err });
  }
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError' || (err instanceof TypeError && /fetch failed/i.test(err.message)))) {
    return new OidcError('unreachable', 'the identity provider could not be reached', { cause: err });
  }
  return new OidcError('unreachable', `talking to the identity provider failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}
