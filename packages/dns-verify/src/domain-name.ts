// A domain name as an organization claims it: one canonical spelling, so the same name is the same
// claim (uniqueness of verified domains, SSO discovery by e-mail domain) and the TXT lookup asks
// for exactly the name that was shown to the user.
import { isIP } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';
import { z } from 'zod';

export type DomainNameResult = { ok: true; value: string } | { ok: false; error: string };

// ASCII outside letters, digits, '-' and '.': the WHATWG host parser would silently cut the input
// at '/', '?', '#', '@' or ':' ("example.com/x" → "example.com"), so such input is refused first.
const FORBIDDEN_ASCII = /[\x00-\x2c\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
// The host parser reads a name whose last label is a number (or 0x…) as an IPv4 address.
const NUMERIC_LABEL = /^(0x[0-9a-f]*|[0-9]+)$/;

/**
 * Trimmed, lower-cased, IDNA (punycode) A-labels, without the root's trailing dot; at least two
 * labels of letters, digits and inner hyphens; 253 characters at most; never an IP address.
 */
export function normalizeDomain(input: string): DomainNameResult {
  const quoted = JSON.stringify(input.length > 300 ? `${input.slice(0, 300)}…` : input);
  const refuse = (why: string): DomainNameResult => ({ ok: false, error: `${quoted} is not a domain name: ${why}.` });
  const trimmed = input.trim();
  if (trimmed === '') return refuse('it is empty');
  if (isIP(trimmed.replace(/^\[|\]$/g, '')) !== 0) return refuse('it is an IP address');
  if (FORBIDDEN_ASCII.test(trimmed)) return refuse('only letters, digits, hyphens and dots are allowed');
  const withoutRoot = (trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed).toLowerCase();
  if (NUMERIC_LABEL.test(withoutRoot.slice(withoutRoot.lastIndexOf('.') + 1))) return refuse('the last label cannot be numeric');
  const ascii = domainToASCII(withoutRoot);
  if (ascii === '') return refuse('it is not a valid internationalised name');
  if (isIP(ascii) !== 0) return refuse('it is an IP address');
  if (ascii.length > 253) return refuse('it is longer than 253 characters');
  const labels = ascii.split('.');
  if (labels.length < 2) return refuse('it needs at least two labels, like example.com');
  // An A-label must decode to Unicode: Node 22 refuses an undecodable one above, Node 24's URL
  // parser passes it through unchanged.
  if (labels.some((l) => l.startsWith('xn--') && !/[^\u0000-\u007f]/.test(domainToUnicode(l)))) return refuse('it is not a valid internationalised name');
  if (!labels.every((l) => LABEL.test(l))) return refuse('each label needs 1 to 63 letters, digits or inner hyphens');
  return { ok: true, value: ascii };
}

/** zod at the boundary: parses to the normalised name, or fails with the reason. */
export const domainName = z.string().max(1024).transform((input, ctx) => {
  const r = normalizeDomain(input);
  if (r.ok) return r.value;
  ctx.addIssue({ code: 'custom', message: r.error });
  return z.NEVER;
});
