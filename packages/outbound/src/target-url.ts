// The syntactic half of the guard: what a URL may look like before anything is resolved.
import { parseIp, type IpAddress } from './ip-address.ts';
import { canonicalHost } from './allow-list.ts';
import { OutboundError } from './outbound-error.ts';

export interface Target {
  readonly url: URL;
  /** Lower-case, unbracketed, without a trailing dot: what DNS and the allow-list see. */
  readonly hostname: string;
  readonly port: number;
  /** Set when the host is an IP literal: nothing to resolve. */
  readonly literal: IpAddress | undefined;
}

const MAX_URL_LENGTH = 8 * 1024;

// Names that mean "this machine" without DNS (RFC 6761, and Debian's /etc/hosts aliases). They
// would resolve to loopback anyway; refusing the name first gives a clearer message.
const LOCAL_NAMES = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback']);
export const isLocalhostName = (hostname: string): boolean => LOCAL_NAMES.has(hostname) || hostname.endsWith('.localhost');

/**
 * Parses (relative to `base`, for redirects) and checks scheme, userinfo and host. Throws
 * `bad_url`. The WHATWG parser already canonicalises odd IPv4 spellings (`0x7f.1`, `2130706433`)
 * into dotted quads, so the address checks downstream only ever see canonical literals.
 */
export function parseTarget(input: string | URL, opts: { allowInsecure: boolean; base?: URL }): Target {
  const text = String(input);
  if (text.length > MAX_URL_LENGTH) throw new OutboundError('bad_url', 'The URL is too long.');
  let url: URL;
  try {
    url = new URL(text, opts.base);
  } catch {
    throw new OutboundError('bad_url', 'The URL is not valid.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new OutboundError('bad_url', `The URL scheme must be https${opts.allowInsecure ? ' or http' : ''}.`);
  }
  if (url.protocol === 'http:' && !opts.allowInsecure) throw new OutboundError('bad_url', 'The URL must use https.');
  // Credentials in a URL leak into logs and redirects; callers pass them as headers instead.
  if (url.username !== '' || url.password !== '') throw new OutboundError('bad_url', 'The URL must not contain credentials.');
  const hostname = canonicalHost(url.hostname.replace(/^\[|\]$/g, ''));
  if (hostname === '') throw new OutboundError('bad_url', 'The URL has no host.');
  url.hash = '';
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return { url, hostname, port, literal: parseIp(hostname) };
}
