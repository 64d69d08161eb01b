// TXT lookups through an explicit resolver (DNS_SERVERS), never through getaddrinfo or a cache:
// ownership is proved by what the authoritative DNS says now.
import { Resolver } from 'node:dns/promises';
import { DEFAULT_DNS_TIMEOUT_MS, parseDnsServers } from './dns-servers.ts';
import { DnsLookupError } from './dns-lookup-error.ts';

export interface TxtLookupOptions {
  /** `ip`, `ip:port`, `[ipv6]:port`; absent or empty = the system's resolvers (/etc/resolv.conf). */
  servers?: readonly string[];
  /** The whole lookup, every try and server. Default 5 s. */
  timeoutMs?: number;
  /** Attempts per server before giving up. Default 2. */
  tries?: number;
}

// "This name has no TXT record" (NODATA) and "this name does not exist" (NXDOMAIN) are answers.
// Every other outcome (timeout, refused, SERVFAIL, garbage) means we do not know.
const ABSENT = new Set(['ENODATA', 'ENOTFOUND']);
const TIMEOUT = new Set(['ETIMEOUT', 'ECANCELLED']);

/**
 * The TXT records at `name`, each record's character-strings joined (a record longer than 255
 * bytes arrives in chunks, which mean one value). An absent record is `[]`; a resolver that fails
 * or does not answer throws `DnsLookupError`.
 */
export async function lookupTxt(name: string, opts: TxtLookupOptions = {}): Promise<string[]> {
  const fqdn = name.trim().replace(/\.$/, '');
  if (fqdn === '' || fqdn.length > 253) throw new TypeError(`not a DNS name: '${name}'`);
  const servers = parseDnsServers(opts.servers ?? []);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_DNS_TIMEOUT_MS;
  const tries = opts.tries ?? 2;
  if (!Number.isInteger(tries) || tries < 1) throw new TypeError('tries must be a positive integer');
  // c-ares doubles the wait on each retry; size the first wait so every try fits in the budget.
  const resolver = new Resolver({ timeout: Math.max(50, Math.floor(timeoutMs / (2 ** tries - 1))), tries });
  if (servers.length > 0) resolver.setServers(servers);
  // The hard stop: whatever c-ares does, the caller gets an answer within timeoutMs.
  const timer = setTimeout(() => resolver.cancel(), timeoutMs);
  try {
    const records = await resolver.resolveTxt(fqdn);
    return records.map((chunks) => chunks.join(''));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== undefined && ABSENT.has(code)) return [];
    throw new DnsLookupError(code !== undefined && TIMEOUT.has(code) ? 'dns_timeout' : 'dns_failure', fqdn, code, err);
  } finally {
    clearTimeout(timer);
  }
}
