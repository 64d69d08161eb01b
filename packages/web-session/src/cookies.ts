// Cookie header parsing and Set-Cookie serialisation (RFC 6265), small enough not to need a
// dependency. Parsing is lenient the way browsers and servers are in practice (skip what cannot be
// read, keep going); serialising is strict (refuse to emit what a browser would mangle).

/** Headers longer than this are read only up to here; real browsers stop near 8 KiB. */
const MAX_HEADER_CHARS = 16_384;
const MAX_PAIRS = 256;
// RFC 7230 `token`: cookie names.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// RFC 6265 `cookie-octet`: no controls, whitespace, DQUOTE, comma, semicolon or backslash.
const COOKIE_OCTETS = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;

/** Every `name=value` pair in header order; a name may repeat (same name, other path or domain). */
export function parseCookiePairs(header: string | readonly string[] | undefined): [string, string][] {
  if (header === undefined) return [];
  const text = (typeof header === 'string' ? header : header.join('; ')).slice(0, MAX_HEADER_CHARS);
  const pairs: [string, string][] = [];
  for (const part of text.split(';')) {
    if (pairs.length >= MAX_PAIRS) break;
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!TOKEN.test(name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    pairs.push([name, decode(value)]);
  }
  return pairs;
}

/** Name → value; for a repeated name the first wins (browsers send the most specific path first). */
export function parseCookieHeader(header: string | readonly string[] | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const [name, value] of parseCookiePairs(header)) if (!cookies.has(name)) cookies.set(name, value);
  return cookies;
}

/** Every value sent under `name`, in header order. */
export function getCookieValues(header: string | readonly string[] | undefined, name: string): string[] {
  return parseCookiePairs(header).filter(([n]) => n === name).map(([, v]) => v);
}

function decode(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // not percent-encoding after all: keep the raw octets
  }
}

export interface CookieAttributes {
  /** Seconds; 0 deletes the cookie. Omitted = a browser-session cookie. */
  maxAgeSeconds?: number;
  path?: string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

/** One `Set-Cookie` header value. Throws on a name or value a browser would not store verbatim. */
export function serializeCookie(name: string, value: string, attributes: CookieAttributes = {}): string {
  if (!TOKEN.test(name)) throw new TypeError('invalid cookie name');
  if (!COOKIE_OCTETS.test(value)) throw new TypeError('invalid cookie value');
  if ((name.startsWith('__Host-') || name.startsWith('__Secure-')) && !attributes.secure) {
    throw new TypeError(`${name.split('-')[0]}- cookies must be Secure`);
  }
  const out = [`${name}=${value}`];
  const path = attributes.path ?? '/';
  if (!/^\/[\x21-\x3A\x3C-\x7E]*$/.test(path)) throw new TypeError('invalid cookie path');
  out.push(`Path=${path}`);
  if (attributes.maxAgeSeconds !== undefined) {
    const maxAge = Math.max(0, Math.floor(attributes.maxAgeSeconds));
    out.push(`Max-Age=${maxAge}`);
    // Expires for the few clients that still ignore Max-Age.
    out.push(`Expires=${new Date(maxAge === 0 ? 0 : Date.now() + maxAge * 1000).toUTCString()}`);
  }
  if (attributes.httpOnly) out.push('HttpOnly');
  if (attributes.secure) out.push('Secure');
  if (attributes.sameSite) out.push(`SameSite=${attributes.sameSite}`);
  return out.join('; ');
}
