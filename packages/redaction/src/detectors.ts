// The built-in detectors. Each is one or more global regular expressions that find candidates, and
// an optional check (a checksum, a digit count) that turns a candidate into a replacement or keeps
// it. V8's regular expressions backtrack, so every pattern here is written to do bounded work per
// start position, which keeps a scan linear in the value's length (a 10^6-character value included,
// see test/hostile-values.test.ts):
//  - every repetition that can fail after running is bounded ({m,n}), or its characters exclude
//    what follows it (so a failure never retries a shorter split);
//  - a lookbehind anchors most patterns to the start of a token, so the positions inside a long
//    run of candidate characters fail at once.
import { REDACTION_DETECTORS } from '@llm/contracts';
import { ibanValid, luhnValid } from './checksums.ts';

export const DETECTOR_NAMES = REDACTION_DETECTORS;
export type DetectorName = (typeof DETECTOR_NAMES)[number];

/** A replacement and how many values it replaced, or undefined: keep the candidate as written. */
export type Check = (candidate: string, placeholder: string) => [text: string, replaced: number] | undefined;

/** A regular expression whose matches are candidates, or a scanner that finds its own. */
export type DetectorPass =
  | { readonly re: RegExp; readonly check?: Check; readonly digits?: true }
  | { readonly scan: (s: string, placeholder: string, count: (n: number) => void) => string };

export interface Detector {
  readonly name: string;
  readonly placeholder: string;
  /** A cheap test that the value may hold a candidate at all (most values skip every pass). */
  readonly mayMatch?: (s: string) => boolean;
  /** Its shapes hold at least 4 digits: a value with fewer skips it (one test shared by such detectors). */
  readonly digits?: true;
  readonly passes: readonly DetectorPass[];
}

// Four digits anywhere (each \D* runs to the next digit: linear).
const FOUR_DIGITS = /\d\D*\d\D*\d\D*\d/;
export const hasFourDigits = (s: string): boolean => FOUR_DIGITS.test(s);

// Phone numbers: a run of phone characters (bounded) is the candidate; within it (≤ 24 characters,
// so any backtracking there is bounded too) the shapes below are the numbers.
const PHONE_SHAPES: readonly RegExp[] = [
  // International: +CC then groups, 8–15 digits in all (E.164).
  /\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){1,6}(?!\d)/g,
  // North American: (415) 555-2671, 415-555-2671, 415.555.2671, 415 555 2671.
  /(?<!\d)(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}(?!\d)/g,
  // National with a trunk 0: 030 1234567, 06 12 34 56 78, 020-7946-0958.
  /(?<!\d)0\d{1,4}(?:[ .-]?\d{2,4}){2,4}(?!\d)/g,
];
const digitCount = (s: string): number => { let n = 0; for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i); if (c >= 48 && c <= 57) n++; } return n; };

const phoneCheck: Check = (candidate, placeholder) => {
  let text = candidate;
  let replaced = 0;
  for (const shape of PHONE_SHAPES) {
    text = text.replace(shape, (m) => {
      const d = digitCount(m);
      const ok = m.startsWith('+') ? d >= 8 && d <= 15 : d >= 9 && d <= 12;
      if (!ok) return m;
      replaced++;
      return placeholder;
    });
  }
  return replaced ? [text, replaced] : undefined;
};

// An IBAN candidate may run into the next word ("DE89 3704 0044 0532 0130 00 BIC"): the longest
// prefix that passes mod-97 is the IBAN.
const ibanCheck: Check = (candidate, placeholder) => {
  const spaced = candidate.includes(' ');
  for (let end = candidate.length; end >= 15; end--) {
    if (spaced && end < candidate.length && candidate[end] !== ' ') continue;
    if (ibanValid(candidate.slice(0, end).replaceAll(' ', ''))) return [placeholder + candidate.slice(end), 1];
  }
  return undefined;
};

const HEX_GROUP = /[0-9A-Fa-f]{1,4}/g;
const H = '[0-9A-Fa-f]{1,4}';
// The whole candidate is an address (anchored: one start position, so its alternation is bounded work).
const IPV6_WHOLE = new RegExp(`^(?:(?:${H}:){7}${H}|(?:${H}:){1,7}:|(?:${H}:){1,6}:${H}|(?:${H}:){1,5}(?::${H}){1,2}|(?:${H}:){1,4}(?::${H}){1,3}|(?:${H}:){1,3}(?::${H}){1,4}|(?:${H}:){1,2}(?::${H}){1,5}|${H}:(?::${H}){1,6}|:(?::${H}){1,7})$`);
const isHexOrColon = (c: number): boolean => (c >= 48 && c <= 58) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const isWordOrDot = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 58;

// IPv6 by hand: from each colon, the run of hex digits and colons around it is the candidate, checked
// whole; the scan resumes after the run, so each character is looked at a bounded number of times
// (a regular expression here tried its alternation at every position: 25× slower on prose).
// "::1", "a::b" and C++'s "std::vector" are not addresses worth a placeholder (fewer than 3 groups).
function ipv6Scan(s: string, placeholder: string, count: (n: number) => void): string {
  let out = '';
  let copied = 0;
  let from = 0;
  for (;;) {
    const colon = s.indexOf(':', from);
    if (colon < 0) break;
    let a = colon;
    while (a > 0 && isHexOrColon(s.charCodeAt(a - 1))) a--;
    let b = colon + 1;
    while (b < s.length && isHexOrColon(s.charCodeAt(b))) b++;
    from = b;
    if (b - a < 6 || a < copied) continue;
    const before = a > 0 ? s.charCodeAt(a - 1) : -1;
    const after = b < s.length ? s.charCodeAt(b) : -1;
    if ((before >= 0 && isWordOrDot(before)) || (after >= 0 && isWordOrDot(after) && after !== 46)) continue;
    const candidate = s.slice(a, b);
    if (!IPV6_WHOLE.test(candidate) || (candidate.match(HEX_GROUP)?.length ?? 0) < 3) continue;
    out += s.slice(copied, a) + placeholder;
    copied = b;
    count(1);
  }
  return copied === 0 ? s : out + s.slice(copied);
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`(?<![\\w.])(?:${OCTET}\\.){3}${OCTET}(?!\\w|\\.\\d)`, 'g');

export const BUILT_IN_DETECTORS: Readonly<Record<DetectorName, Detector>> = {
  token: {
    name: 'token', placeholder: '[TOKEN]',
    passes: [
      // "Bearer <token>" keeps the scheme; JWTs anywhere (header and payload are base64url JSON).
      { re: /\b(Bearer\s{1,8})[A-Za-z0-9._~+/-]{8,}=*/gi, check: (m, p) => [m.slice(0, m.search(/\s/)) + ' ' + p, 1] },
      { re: /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g },
    ],
  },
  api_key: {
    name: 'api_key', placeholder: '[API_KEY]',
    passes: [{
      // OpenAI/Anthropic sk-…, AWS access key ids, GitHub, Slack, Google, Stripe and GitLab tokens.
      re: /\b(?:sk-[A-Za-z0-9_-]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z])|gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])|[rsp]k_(?:live|test)_[0-9A-Za-z]{16,}|glpat-[A-Za-z0-9_-]{20,})/g,
    }],
  },
  email: {
    name: 'email', placeholder: '[EMAIL]', mayMatch: (s) => s.includes('@'),
    passes: [{ re: /(?<![\w.%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,7}\.[A-Za-z]{2,24}(?![\w-])/g }],
  },
  iban: {
    name: 'iban', placeholder: '[IBAN]', digits: true,
    // Written whole, or in groups of four with a shorter last group (the print format).
    passes: [{ re: /\b[A-Z]{2}\d{2}(?:(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,3})?|[A-Z0-9]{11,30})\b/g, check: ibanCheck }],
  },
  card: {
    name: 'card', placeholder: '[CARD]', digits: true,
    // 13–19 digits, single spaces or hyphens between them, issuer digit 2–6 (Mastercard 2/5, Amex 3,
    // Visa 4, Discover 6), Luhn-valid.
    passes: [{ re: /(?<![\d.,-])[2-6]\d(?:[ -]?\d){11,17}(?!\d)/g, check: (m, p) => (luhnValid(m) ? [p, 1] : undefined) }],
  },
  ip: {
    name: 'ip', placeholder: '[IP]',
    // IPv6 needs no digit (fe80::abcd:ef12), so only the IPv4 pass is behind the digit test.
    passes: [{ scan: ipv6Scan }, { re: IPV4, digits: true }],
  },
  phone: {
    name: 'phone', placeholder: '[PHONE]', digits: true,
    passes: [{ re: /(?<![\w+.-])\+?\(?\d[\d ().-]{5,22}\d(?!\w)/g, check: phoneCheck }],
  },
};

/** The order detectors run in: specific shapes before the ones that would eat their digits. */
export const DETECTOR_ORDER: readonly DetectorName[] = ['token', 'api_key', 'email', 'iban', 'card', 'ip', 'phone'];
