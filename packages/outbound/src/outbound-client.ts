// The guarded client for every call to a URL a user gave us (OIDC discovery and token calls,
// webhooks, provider probes). Each hop: parse → resolve and vet → connect to the vetted address.
import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import { parseAllowList } from './allow-list.ts';
import { OutboundError } from './outbound-error.ts';
import { sendOnce, type HopResponse } from './send-once.ts';
import { parseTarget, type Target } from './target-url.ts';
import { systemResolve, vetTarget, type ResolveHost, type VetPolicy } from './vet-target.ts';

export const OUTBOUND_DEFAULTS = {
  timeoutMs: 10_000,
  connectTimeoutMs: 5_000,
  maxBytes: 1024 * 1024,
  maxRedirects: 0,
} as const;

export interface OutboundClientOptions {
  /** Whole call, DNS to last byte, across redirects. Default 10 s. */
  timeoutMs?: number;
  /** TCP connect of each hop. Default 5 s. */
  connectTimeoutMs?: number;
  /** Response body cap; beyond it the call aborts with `too_large`. Default 1 MiB. */
  maxBytes?: number;
  /** Redirects followed, each hop vetted again. Default 0: a 3xx is returned as it is. */
  maxRedirects?: number;
  /** Permit `http:` URLs. Default false (https only). */
  allowInsecure?: boolean;
  /**
   * Exceptions to the private/loopback/reserved ban: `host`, `host:port`, `ip`, `ip:port`,
   * `[ipv6]:port` or a CIDR. Empty by default; tests list their loopback servers here.
   */
  allowPrivateHosts?: readonly string[];
  /** Sent unless the call sets its own. */
  userAgent?: string;
  /** Extra trusted CA certificates (a test TLS server's self-signed certificate). */
  ca?: string | Buffer | ReadonlyArray<string | Buffer>;
  /** Host name resolution; default the system resolver. Tests inject DNS answers here. */
  resolve?: ResolveHost;
}

export interface OutboundRequestInit {
  method?: string;
  headers?: Readonly<Record<string, string>>;
  body?: string | Uint8Array;
  /** Per-call overrides of the client's limits. */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** The URL that answered (after redirects). */
  readonly url: string;
  readonly redirects: number;
}

export interface GetJsonInit<S extends z.ZodType | undefined = undefined> extends Omit<OutboundRequestInit, 'method' | 'body'> {
  /** Validates the document; a mismatch is `bad_response`. */
  schema?: S;
}

/** The subset of `fetch`'s init the adapter understands (what openid-client's customFetch sends). */
export interface OutboundFetchInit {
  method?: string;
  headers?: Headers | Readonly<Record<string, string>> | ReadonlyArray<readonly [string, string]>;
  body?: string | Uint8Array | ArrayBuffer | URLSearchParams | ReadableStream<Uint8Array> | null;
  signal?: AbortSignal | null;
  /** `follow` uses the client's `maxRedirects`; `manual` returns the 3xx; `error` throws on one. */
  redirect?: 'follow' | 'manual' | 'error';
}

export interface OutboundClient {
  /** Any status comes back as a response; only guard, transport, time and size failures throw. */
  request(url: string | URL, init?: OutboundRequestInit): Promise<OutboundResponse>;
  /** GET a JSON document: non-2xx is `http_status`, unparseable or off-schema is `bad_response`. */
  getJson(url: string | URL, init?: GetJsonInit): Promise<unknown>;
  getJson<S extends z.ZodType>(url: string | URL, init: GetJsonInit<S> & { schema: S }): Promise<z.output<S>>;
  /** A `fetch`-shaped door to the same guard, e.g. for openid-client's `customFetch`. */
  fetch(url: string | URL, init?: OutboundFetchInit): Promise<Response>;
  /** Runs the guard on a URL without sending anything (e.g. to refuse an issuer URL up front). */
  check(url: string | URL): Promise<void>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Credentials belong to one origin; a redirect elsewhere must not carry them along.
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
// A status that forbids a body: `new Response()` refuses one for these.
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export function createOutboundClient(options: OutboundClientOptions = {}): OutboundClient {
  const limits = {
    timeoutMs: positive(options.timeoutMs, OUTBOUND_DEFAULTS.timeoutMs, 'timeoutMs'),
    connectTimeoutMs: positive(options.connectTimeoutMs, OUTBOUND_DEFAULTS.connectTimeoutMs, 'connectTimeoutMs'),
    maxBytes: positive(options.maxBytes, OUTBOUND_DEFAULTS.maxBytes, 'maxBytes'),
    maxRedirects: nonNegative(options.maxRedirects, OUTBOUND_DEFAULTS.maxRedirects, 'maxRedirects'),
  };
  const allowInsecure = options.allowInsecure ?? false;
  const policy: VetPolicy = { allow: parseAllowList(options.allowPrivateHosts ?? []), resolve: options.resolve ?? systemResolve };

  async function request(url: string | URL, init: OutboundRequestInit = {}): Promise<OutboundResponse> {
    const timeoutMs = positive(init.timeoutMs, limits.timeoutMs, 'timeoutMs');
    const maxBytes = positive(init.maxBytes, limits.maxBytes, 'maxBytes');
    const maxRedirects = nonNegative(init.maxRedirects, limits.maxRedirects, 'maxRedirects');
    let target = parseTarget(url, { allowInsecure });
    let method = (init.method ?? 'GET').toUpperCase();
    let body = typeof init.body === 'string' ? Buffer.from(init.body) : init.body;
    let headers = withDefaults(init.headers ?? {}, options.userAgent);

    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new OutboundError('timeout', `The call to '${target.hostname}' did not complete within ${timeoutMs} ms.`)),
      timeoutMs,
    );
    const signal = init.signal ? AbortSignal.any([deadline.signal, init.signal]) : deadline.signal;
    try {
      for (let redirects = 0; ; redirects++) {
        const addresses = await untilAborted(vetTarget(target, policy), signal);
        const res = await sendOnce({ target, addresses, method, headers, body, connectTimeoutMs: limits.connectTimeoutMs, maxBytes, signal, ca: options.ca });
        const location = res.headers.location;
        if (!REDIRECTS.has(res.status) || maxRedirects === 0 || location === undefined) return answer(res, target, redirects);
        if (redirects >= maxRedirects) {
          throw new OutboundError('http_status', `Too many redirects (more than ${maxRedirects}).`, { status: res.status });
        }
        const next = parseTarget(location, { allowInsecure, base: target.url });
        // 303, and 301/302 after a POST (as browsers do), continue as a body-less GET.
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = method === 'HEAD' ? 'HEAD' : 'GET';
          body = undefined;
          headers = without(headers, ['content-type']);
        }
        if (next.url.origin !== target.url.origin) headers = without(headers, ORIGIN_BOUND_HEADERS);
        target = next;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  async function getJson(url: string | URL, init: GetJsonInit<z.ZodType | undefined> = {}): Promise<unknown> {
    const { schema, ...rest } = init;
    const res = await request(url, { ...rest, method: 'GET', headers: { accept: 'application/json', ...rest.headers } });
    if (res.status < 200 || res.status > 299) {
      throw new OutboundError('http_status', `'${hostOf(res.url)}' answered HTTP ${res.status}.`, { status: res.status });
    }
    let doc: unknown;
    try {
      doc = JSON.parse(res.body.toString('utf8'));
    } catch (cause) {
      throw new OutboundError('bad_response', `'${hostOf(res.url)}' did not answer with JSON.`, { status: res.status, cause });
    }
    if (!schema) return doc;
    const parsed = schema.safeParse(doc);
    if (!parsed.success) {
      throw new OutboundError('bad_response', `'${hostOf(res.url)}' answered with an unexpected document.`, { status: res.status, cause: parsed.error });
    }
    return parsed.data;
  }

  async function fetchAdapter(url: string | URL, init: OutboundFetchInit = {}): Promise<Response> {
    const headers = Object.fromEntries(new Headers(init.headers as ConstructorParameters<typeof Headers>[0]).entries());
    let body: string | Uint8Array | undefined;
    if (init.body instanceof URLSearchParams) {
      body = init.body.toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded;charset=UTF-8';
    } else if (init.body instanceof ArrayBuffer) body = new Uint8Array(init.body);
    // Our own request bodies (token calls) are small: buffer a stream rather than send it chunked.
    else if (init.body instanceof ReadableStream) body = new Uint8Array(await new Response(init.body).arrayBuffer());
    else body = init.body ?? undefined;
    const res = await request(url, {
      method: init.method ?? 'GET',
      headers,
      ...(body !== undefined && { body }),
      ...(init.signal && { signal: init.signal }),
      ...((init.redirect === 'manual' || init.redirect === 'error') && { maxRedirects: 0 }),
    });
    if (init.redirect === 'error' && REDIRECTS.has(res.status)) {
      throw new OutboundError('http_status', `'${hostOf(res.url)}' answered with a redirect.`, { status: res.status });
    }
    const response = new Response(NULL_BODY.has(res.status) ? null : res.body, {
      status: res.status,
      statusText: res.statusText,
      headers: toHeaders(res.headers),
    });
    // `Response.url` is read-only and empty for constructed responses; callers use it for errors.
    Object.defineProperty(response, 'url', { value: res.url });
    return response;
  }

  async function check(url: string | URL): Promise<void> {
    const target = parseTarget(url, { allowInsecure });
    const deadline = AbortSignal.timeout(limits.timeoutMs);
    await untilAborted(vetTarget(target, policy), deadline, () => new OutboundError('timeout', `Resolving '${target.hostname}' took too long.`));
  }

  return { request, getJson: getJson as OutboundClient['getJson'], fetch: fetchAdapter, check };
}

function answer(res: HopResponse, target: Target, redirects: number): OutboundResponse {
  return { status: res.status, statusText: res.statusText, headers: res.headers, body: res.body, url: target.url.href, redirects };
}

/** Caller headers never sent (with any `proxy-*`): see withDefaults. */
const OWN_HEADERS: ReadonlySet<string> = new Set([
  'host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade', 'expect', 'proxy-connection',
]);

function withDefaults(given: Readonly<Record<string, string>>, userAgent: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(given)) {
    const name = k.toLowerCase();
    // Framing, routing and the connection are ours: Host follows the URL, the length follows the
    // body, and hop-by-hop headers (a caller's Transfer-Encoding next to our Content-Length is how
    // requests get smuggled) are never passed on.
    if (!OWN_HEADERS.has(name) && !name.startsWith('proxy-')) headers[name] = v;
  }
  if (userAgent !== undefined) headers['user-agent'] ??= userAgent;
  // Bodies are capped as received; a compressed one could expand past the cap after the check.
  headers['accept-encoding'] = 'identity';
  return headers;
}

function without(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k)));
}

function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
  }
  return out;
}

const hostOf = (url: string): string => new URL(url).host;

/** DNS lookups cannot be cancelled; stop waiting for them when the deadline passes. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal, reason?: () => unknown): Promise<T> {
  if (signal.aborted) return Promise.reject(reason ? reason() : signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(reason ? reason() : signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`${name} must be a positive number`);
  return value;
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw new TypeError(`${name} must be a non-negative integer`);
  return value;
}
