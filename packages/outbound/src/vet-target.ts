// The network half of the guard: resolve once, check every answer, and hand back exactly the
// addresses that were checked so the connection uses them (no second lookup to rebind).
import { lookup } from 'node:dns/promises';
import { allowsAddress, allowsHost, type AllowEntry } from './allow-list.ts';
import { formatIp, parseIp } from './ip-address.ts';
import { OutboundError } from './outbound-error.ts';
import { specialAddressClass } from './special-addresses.ts';
import { isLocalhostName, type Target } from './target-url.ts';

/** Resolves a host name to IP literals. Injectable so tests can play DNS answers. */
export type ResolveHost = (hostname: string) => Promise<readonly string[]>;

/** The operating system's resolver (getaddrinfo: /etc/hosts, then DNS), in its own order. */
export const systemResolve: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export interface VetPolicy {
  readonly allow: readonly AllowEntry[];
  readonly resolve: ResolveHost;
}

const blocked = (hostname: string, address?: string): OutboundError =>
  new OutboundError('blocked_target', `The host '${hostname}' is not allowed: outbound calls may only reach public internet addresses.`, { ...(address !== undefined && { address }) });

/** Returns the addresses to connect to, all checked; throws `blocked_target` or `transport`. */
export async function vetTarget(target: Target, policy: VetPolicy): Promise<string[]> {
  const { hostname, port } = target;
  if (target.literal) {
    const address = formatIp(target.literal);
    if (specialAddressClass(target.literal) && !allowsAddress(policy.allow, target.literal, port)) throw blocked(hostname, address);
    return [hostname];
  }
  // A listed name is trusted with whatever it resolves to: that is what listing `localhost` means.
  const nameListed = allowsHost(policy.allow, hostname, port);
  if (!nameListed && isLocalhostName(hostname)) throw blocked(hostname);
  let addresses: readonly string[];
  try {
    addresses = await policy.resolve(hostname);
  } catch (cause) {
    throw new OutboundError('transport', `Could not resolve the host '${hostname}'.`, { cause });
  }
  if (addresses.length === 0) throw new OutboundError('transport', `Could not resolve the host '${hostname}'.`);
  const checked: string[] = [];
  for (const address of addresses) {
    const ip = parseIp(address);
    if (!ip) throw new OutboundError('transport', `The resolver returned a malformed address for '${hostname}'.`, { address });
    // Every answer must pass, not just the first: the connection may fall back to any of them.
    if (!nameListed && specialAddressClass(ip) && !allowsAddress(policy.allow, ip, port)) throw blocked(hostname, address);
    checked.push(formatIp(ip));
  }
  return checked;
}
