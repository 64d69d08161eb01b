// Which resolvers answer the ownership lookups. Production leaves DNS_SERVERS unset (the system's
// resolvers); tests point it at their loopback DNS server. Node's Resolver takes IP literals only,
// so host names are refused here with a clear message instead of failing at the first lookup.
import { isIP } from 'node:net';
import { z } from 'zod';

/** Why an entry is not `ip`, `ip:port`, `ipv6`, `[ipv6]` or `[ipv6]:port`; undefined when it is. */
export function dnsServerProblem(entry: string): string | undefined {
  const s = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s);
  const v4 = /^([0-9.]+)(?::(\d{1,5}))?$/.exec(s);
  let host: string | undefined;
  let port: string | undefined;
  if (bracketed) [, host, port] = bracketed;
  else if (v4) [, host, port] = v4;
  else if (isIP(s) === 6) host = s;
  if (host === undefined) return `'${entry}' is not an IP address with an optional port (use [ipv6]:port for IPv6)`;
  if (isIP(host) !== (bracketed !== null || isIP(s) === 6 ? 6 : 4)) return `'${entry}' is not a valid IP address`;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return `'${entry}' has a port outside 1-65535`;
  return undefined;
}

const csv = (s: string | undefined): string[] => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean);

/** Splits a comma list (or takes a list) and validates every entry; throws TypeError on the first bad one. */
export function parseDnsServers(input: string | readonly string[] | undefined): string[] {
  const list = typeof input === 'string' || input === undefined ? csv(input) : input.map((x) => x.trim()).filter(Boolean);
  for (const entry of list) {
    const problem = dnsServerProblem(entry);
    if (problem) throw new TypeError(`DNS server ${problem}`);
  }
  return list;
}

export const DEFAULT_DNS_TIMEOUT_MS = 5_000;

export const dnsVerifyEnv = z.object({
  /** Resolvers for domain verification, comma-separated `ip[:port]` / `[ipv6]:port`; unset = the system's. */
  DNS_SERVERS: z
    .string()
    .optional()
    .transform(csv)
    .superRefine((entries, ctx) => {
      for (const entry of entries) {
        const problem = dnsServerProblem(entry);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }
    }),
  /** Whole TXT lookup, all tries and servers, in milliseconds. */
  DNS_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(DEFAULT_DNS_TIMEOUT_MS),
});

export type DnsVerifyEnv = z.output<typeof dnsVerifyEnv>;
