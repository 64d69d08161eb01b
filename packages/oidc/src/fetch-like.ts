// The HTTP door of this package. Every request (discovery, token, JWKS, userinfo) goes through one
// injected fetch-shaped function, so production can hand in the guarded outbound client (timeouts,
// size caps, no private or loopback targets) and tests a plain or a tampering fetch. Its shape is
// what openid-client's `customFetch` calls with; the global `fetch` fits it too.

export interface OidcFetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | ArrayBuffer | URLSearchParams | ReadableStream | null | undefined;
  /** Redirects are never followed: an OIDC endpoint that redirects is treated as failing. */
  redirect: 'manual';
  signal?: AbortSignal | undefined;
  duplex?: 'half';
}

export type FetchLike = (url: string, init: OidcFetchInit) => Promise<Response>;

export const defaultFetch: FetchLike = (url, init) => fetch(url, init);
