// OIDC discovery: `<issuer>/.well-known/openid-configuration`, validated. This backs the provider
// `test` endpoint (reference §5: valid only with an HTTP 200 JSON document holding
// `authorization_endpoint`, `token_endpoint` and `userinfo_endpoint`) and every sign-in.
//
// Stricter than the reference, on purpose: the document's `issuer` must be present and equal the
// configured issuer (OpenID Connect Discovery §4.3; a mismatch means a typo or a mix-up attack), and
// every endpoint must be an absolute https URL (http only when `allowInsecure`, for tests).
import { fail, ok, type Result } from '@llm/errors';
import { defaultFetch, type FetchLike } from './fetch-like.ts';

export const REQUIRED_ENDPOINTS = ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint'] as const;
export type RequiredEndpoint = (typeof REQUIRED_ENDPOINTS)[number];
const OPTIONAL_ENDPOINTS = ['jwks_uri', 'end_session_endpoint', 'revocation_endpoint', 'introspection_endpoint'] as const;

/** The validated discovery document; other members are kept as sent (openid-client reads them). */
export interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  jwks_uri?: string;
  [member: string]: unknown;
}

export type DiscoveryFailure =
  | { kind: 'invalid_issuer_url'; message: string }
  | { kind: 'unreachable'; message: string }
  | { kind: 'http_status'; status: number; message: string }
  | { kind: 'too_large'; message: string }
  | { kind: 'not_json'; message: string }
  | { kind: 'missing_endpoints'; missing: RequiredEndpoint[]; message: string }
  | { kind: 'invalid_document'; message: string }
  | { kind: 'issuer_mismatch'; expected: string; actual: string; message: string };

export interface DiscoveryOptions {
  fetch?: FetchLike;
  /** Permit http:// issuers and endpoints (tests and local development only). */
  allowInsecure?: boolean;
  /** Default 10 s, like the reference's provider test. */
  timeoutMs?: number;
  /** Default 256 KiB; real documents are a few KiB. */
  maxBytes?: number;
}

/** Normalised issuer URL, or why it cannot be one (RFC 8414 §2: no query, no fragment). */
export function parseIssuerUrl(issuer: string, allowInsecure = false): Result<URL, string> {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return fail('issuer URL is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:')) return fail(`issuer URL must use https`);
  if (url.username || url.password) return fail('issuer URL must not contain credentials');
  if (url.search || url.hash || issuer.includes('?') || issuer.includes('#')) return fail('issuer URL must not have a query or fragment');
  return ok(url);
}

/** `<issuer>/.well-known/openid-configuration`, keeping any issuer path (OIDC Discovery §4). */
export function discoveryUrl(issuer: URL): string {
  return `${issuer.href.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

const sameIssuer = (a: string, b: string): boolean => a.replace(/\/$/, '') === b.replace(/\/$/, '');

export async function discoverProvider(issuerUrl: string, options: DiscoveryOptions = {}): Promise<Result<ProviderMetadata, DiscoveryFailure>> {
  const allowInsecure = options.allowInsecure ?? false;
  const issuer = parseIssuerUrl(issuerUrl, allowInsecure);
  if (!issuer.ok) return fail({ kind: 'invalid_issuer_url', message: issuer.error });
  const doFetch = options.fetch ?? defaultFetch;
  const url = discoveryUrl(issuer.value);

  let text: string;
  try {
    const response = await doFetch(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      return fail({ kind: 'http_status', status: response.status, message: `discovery document answered HTTP ${response.status}` });
    }
    const body = await readBounded(response, options.maxBytes ?? 256 * 1024);
    if (body === undefined) return fail({ kind: 'too_large', message: 'discovery document is too large' });
    text = body;
  } catch (err) {
    return fail({ kind: 'unreachable', message: `discovery document could not be fetched: ${describeError(err)}` });
  }

  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail({ kind: 'not_json', message: 'discovery document is not JSON' });
  }
  return validateMetadata(json, issuer.value, allowInsecure);
}

/** Checks a parsed discovery document against the configured issuer. */
export function validateMetadata(json: unknown, issuer: URL, allowInsecure = false): Result<ProviderMetadata, DiscoveryFailure> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return fail({ kind: 'not_json', message: 'discovery document is not a JSON object' });
  }
  const doc = json as Record<string, unknown>;
  const missing = REQUIRED_ENDPOINTS.filter((k) => typeof doc[k] !== 'string' || doc[k] === '');
  if (missing.length > 0) {
    return fail({ kind: 'missing_endpoints', missing, message: `discovery document lacks ${missing.join(', ')}` });
  }
  if (typeof doc.issuer !== 'string' || doc.issuer === '') {
    return fail({ kind: 'invalid_document', message: 'discovery document lacks issuer' });
  }
  if (!sameIssuer(doc.issuer, issuer.href)) {
    return fail({ kind: 'issuer_mismatch', expected: issuer.href, actual: doc.issuer, message: `discovery document names issuer ${doc.issuer}, not ${issuer.href}` });
  }
  for (const key of [...REQUIRED_ENDPOINTS, ...OPTIONAL_ENDPOINTS]) {
    const value = doc[key];
    if (value === undefined && !(REQUIRED_ENDPOINTS as readonly string[]).includes(key)) continue;
    if (!isEndpoint(value, allowInsecure)) {
      return fail({ kind: 'invalid_document', message: `${key} is not an absolute ${allowInsecure ? 'http(s)' : 'https'} URL` });
    }
  }
  return ok(doc as ProviderMetadata);
}

function isEndpoint(value: unknown, allowInsecure: boolean): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || (allowInsecure && url.protocol === 'http:')) && !url.username && !url.password && !url.hash;
  } catch {
    return false;
  }
}

/** The body as text, or undefined once it exceeds `maxBytes` (the rest is not read). */
async function readBounded(response: Response, maxBytes: number): Promise<string | undefined> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function describeError(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timed out';
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return `${err.message}${cause}`;
  }
  return String(err);
}
