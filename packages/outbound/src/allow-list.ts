// The explicit exceptions to the guard. Operators (and tests reaching loopback servers) name
// either hosts or networks, optionally pinned to one port:
//   localhost  ·  idp.internal:8443  ·  127.0.0.1  ·  127.0.0.1:4000  ·  [::1]:4000  ·  10.0.0.0/8
// A host entry trusts whatever that name resolves to; a network entry trusts addresses, whatever
// name led there. An IPv6 address with a port needs brackets (`::1:4000` is itself an address).
import { isIP } from 'node:net';
import { hostNetwork, inNetwork, parseIp, parseNetwork, unmapped, type IpAddress, type IpNetwork } from './ip-address.ts';

export type AllowEntry =
  | { readonly kind: 'host'; readonly host: string; readonly port?: number }
  | { readonly kind: 'network'; readonly network: IpNetwork; readonly port?: number };

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** Lower-cased, without the trailing dot of a fully qualified name. */
export const canonicalHost = (host: string): string => host.trim().toLowerCase().replace(/\.$/, '');

export function parseAllowEntry(text: string): AllowEntry | undefined {
  const s = text.trim().toLowerCase();
  if (s.includes('/')) {
    const net = parseNetwork(s);
    return net && { kind: 'network', network: unmappedNetwork(net) };
  }
  const [host, portText] = splitPort(s);
  if (portText !== undefined && !/^\d{1,5}$/.test(portText)) return undefined;
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  const ip = parseIp(host);
  if (ip) return { kind: 'network', network: hostNetwork(unmapped(ip)), ...(port !== undefined && { port }) };
  const name = canonicalHost(host);
  if (!HOSTNAME.test(name)) return undefined;
  return { kind: 'host', host: name, ...(port !== undefined && { port }) };
}

/** Parses every entry; throws a TypeError naming the first malformed one (a configuration bug). */
export function parseAllowList(entries: readonly string[]): AllowEntry[] {
  return entries.map((e) => {
    const parsed = parseAllowEntry(e);
    if (!parsed) throw new TypeError(`not an allow-list entry (host, host:port, ip, ip:port, [ipv6]:port or cidr): '${e}'`);
    return parsed;
  });
}

function splitPort(s: string): [string, string | undefined] {
  if (s.startsWith('[')) {
    const end = s.indexOf(']');
    const rest = s.slice(end + 1);
    return [s.slice(0, end + 1), rest.startsWith(':') ? rest.slice(1) : rest === '' ? undefined : rest];
  }
  if (isIP(s) === 6) return [s, undefined];
  const colon = s.lastIndexOf(':');
  return colon < 0 ? [s, undefined] : [s.slice(0, colon), s.slice(colon + 1)];
}

// `::ffff:10.0.0.0/104` and `10.0.0.0/8` mean the same hosts; keep one form so matching is simple.
function unmappedNetwork(net: IpNetwork): IpNetwork {
  if (net.base.version !== 6 || net.prefix < 96) return net;
  const base = unmapped(net.base);
  return base === net.base ? net : { base, prefix: net.prefix - 96 };
}

const portMatches = (entry: AllowEntry, port: number): boolean => entry.port === undefined || entry.port === port;

export function allowsHost(list: readonly AllowEntry[], host: string, port: number): boolean {
  const name = canonicalHost(host);
  return list.some((e) => e.kind === 'host' && e.host === name && portMatches(e, port));
}

export function allowsAddress(list: readonly AllowEntry[], address: IpAddress, port: number): boolean {
  const ip = unmapped(address);
  return list.some((e) => e.kind === 'network' && inNetwork(ip, e.network) && portMatches(e, port));
}
