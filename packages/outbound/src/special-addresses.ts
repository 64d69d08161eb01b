// Which addresses an outbound call must never reach. IPv4 is a deny-list of the IANA
// special-purpose registry; IPv6 is stricter: only global unicast (2000::/3) is reachable, minus
// its special blocks, because everything else there is local, reserved or a translation prefix.
import { inNetwork, network, unmapped, type IpAddress, type IpNetwork } from './ip-address.ts';

export type AddressClass =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link_local'
  | 'documentation'
  | 'benchmarking'
  | 'multicast'
  | 'reserved';

type Rule = readonly [IpNetwork, AddressClass];
const rule = (cidr: string, cls: AddressClass): Rule => [network(cidr), cls];

const IPV4: readonly Rule[] = [
  rule('0.0.0.0/8', 'unspecified'),
  rule('10.0.0.0/8', 'private'),
  rule('100.64.0.0/10', 'shared'), // carrier-grade NAT: someone's internal network
  rule('127.0.0.0/8', 'loopback'),
  rule('169.254.0.0/16', 'link_local'), // includes the cloud metadata service 169.254.169.254
  rule('172.16.0.0/12', 'private'),
  rule('192.0.0.0/24', 'reserved'),
  rule('192.0.2.0/24', 'documentation'),
  rule('192.88.99.0/24', 'reserved'), // deprecated 6to4 relay anycast
  rule('192.168.0.0/16', 'private'),
  rule('198.18.0.0/15', 'benchmarking'),
  rule('198.51.100.0/24', 'documentation'),
  rule('203.0.113.0/24', 'documentation'),
  rule('224.0.0.0/4', 'multicast'),
  rule('240.0.0.0/4', 'reserved'), // includes broadcast 255.255.255.255
];

const NAT64 = network('64:ff9b::/96'); // well-known prefix: the last 32 bits are the IPv4 target
const GLOBAL_UNICAST = network('2000::/3');

const IPV6_OUTSIDE_GLOBAL: readonly Rule[] = [
  rule('::/128', 'unspecified'),
  rule('::1/128', 'loopback'),
  rule('fc00::/7', 'private'), // unique local
  rule('fe80::/10', 'link_local'),
  rule('ff00::/8', 'multicast'),
];

const IPV6_INSIDE_GLOBAL: readonly Rule[] = [
  rule('2001::/23', 'reserved'), // IETF protocol assignments, Teredo, ORCHID …
  rule('2001:db8::/32', 'documentation'),
  rule('2002::/16', 'reserved'), // 6to4 embeds arbitrary IPv4 (even private) and is deprecated
  rule('3fff::/20', 'documentation'),
];

const match = (ip: IpAddress, rules: readonly Rule[]): AddressClass | undefined =>
  rules.find(([net]) => inNetwork(ip, net))?.[1];

/** Why an address is not a public internet host, or undefined when it is one. */
export function specialAddressClass(address: IpAddress): AddressClass | undefined {
  const ip = unmapped(address);
  if (ip.version === 4) return match(ip, IPV4);
  if (inNetwork(ip, NAT64)) return specialAddressClass({ version: 4, bytes: ip.bytes.slice(12) });
  if (!inNetwork(ip, GLOBAL_UNICAST)) return match(ip, IPV6_OUTSIDE_GLOBAL) ?? 'reserved';
  return match(ip, IPV6_INSIDE_GLOBAL);
}
