// IP literals as bytes, so range checks are arithmetic on prefixes rather than string matching
// (which is how SSRF filters usually get bypassed: `::ffff:7f00:1`, `0177.0.0.1`, zone ids …).
import { isIP } from 'node:net';

export interface IpAddress {
  readonly version: 4 | 6;
  /** 4 bytes for IPv4, 16 for IPv6, network order. */
  readonly bytes: Uint8Array;
}

export interface IpNetwork {
  readonly base: IpAddress;
  readonly prefix: number;
}

/** Parses a canonical IPv4 or IPv6 literal (brackets and an IPv6 zone id are tolerated). */
export function parseIp(text: string): IpAddress | undefined {
  let s = text.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const version = isIP(s);
  if (version === 4) return { version: 4, bytes: Uint8Array.from(s.split('.').map(Number)) };
  if (version === 6) return { version: 6, bytes: parseV6(s) };
  return undefined;
}

// Only called on text that `isIP` accepted, so the shape is known to be valid.
function parseV6(s: string): Uint8Array {
  const groups = (part: string): number[] =>
    part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? v4Groups(g) : [parseInt(g, 16)]));
  const gap = s.indexOf('::');
  const head = groups(gap >= 0 ? s.slice(0, gap) : s);
  const tail = gap >= 0 ? groups(s.slice(gap + 2)) : [];
  const all = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  return bytes;
}

function v4Groups(dotted: string): number[] {
  const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
  return [(a << 8) | b, (c << 8) | d];
}

export function formatIp(ip: IpAddress): string {
  if (ip.version === 4) return Array.from(ip.bytes).join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((ip.bytes[i] ?? 0) << 8) | (ip.bytes[i + 1] ?? 0)).toString(16));
  return groups.join(':');
}

/** `a.b.c.d/n` or `v6/n`; undefined when malformed. */
export function parseNetwork(text: string): IpNetwork | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const base = parseIp(text.slice(0, slash));
  const bits = text.slice(slash + 1);
  if (!base || !/^\d{1,3}$/.test(bits)) return undefined;
  const prefix = Number(bits);
  if (prefix > base.bytes.length * 8) return undefined;
  return { base, prefix };
}

export const network = (text: string): IpNetwork => {
  const n = parseNetwork(text);
  if (!n) throw new TypeError(`not a network: ${text}`);
  return n;
};

export const hostNetwork = (ip: IpAddress): IpNetwork => ({ base: ip, prefix: ip.bytes.length * 8 });

export function inNetwork(ip: IpAddress, net: IpNetwork): boolean {
  if (ip.version !== net.base.version) return false;
  const full = net.prefix >> 3;
  for (let i = 0; i < full; i++) if (ip.bytes[i] !== net.base.bytes[i]) return false;
  const rest = net.prefix & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((ip.bytes[full] ?? 0) & mask) === ((net.base.bytes[full] ?? 0) & mask);
}

const MAPPED = network('::ffff:0:0/96');

/**
 * An IPv4-mapped IPv6 address is the IPv4 host it names (the kernel connects to it over IPv4),
 * so it is checked and allow-listed as that IPv4 address.
 */
export function unmapped(ip: IpAddress): IpAddress {
  return inNetwork(ip, MAPPED) ? { version: 4, bytes: ip.bytes.slice(12) } : ip;
}
