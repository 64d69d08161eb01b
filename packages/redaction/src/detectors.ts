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

export interface DetectorPass {
  readonly re: RegExp;
  readonly check?: Check;
}

export interface Detector {
  readonly name: string;
  readonly placeholder: string;
  /** A cheap test that the value may hold a candidate at all (most values skip every pass). */
  readonly mayMatch?: (s: string) => boolean;
  readonly passes: readonly DetectorPass[];
}

const HAS_DIGIT = /\d/;
const hasDigit = (s: string): boolean => HAS_DIGIT.test(s);

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
// "fe80::1" and full addresses; "::1", "a::b" and C++'s "std::vector" are not addresses worth a placeholder.
const ipv6Check: Check = (candidate, placeholder) => ((candidate.match(HEX_GROUP)?.length ?? 0) >= 3 ? [placeholder, 1] : undefined);

const H = '[0-9A-Fa-f]{1,4}';
const IPV6 = new RegExp(`(?<![\\w:.])(?:(?:${H}:){7}${H}|(?:${H}:){1,7}:|(?:${H}:){1,6}:${H}|(?:${H}:){1,5}(?::${H}){1,2}|(?:${H}:){1,4}(?::${H}){1,3}|(?:${H}:){1,3}(?::${H}){1,4}|(?:${H}:){1,2}(?::${H}){1,5}|${H}:(?::${H}){1,6}|:(?::${H}){1,7})(?![\\w:])`, 'g');
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
    name: 'iban', placeholder: '[IBAN]', mayMatch: hasDigit,
    // Written whole, or in groups of four with a shorter last group (the print format).
    passes: [{ re: /\b[A-Z]{2}\d{2}(?:(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,3})?|[A-Z0-9]{11,30})\b/g, check: ibanCheck }],
  },
  card: {
    name: 'card', placeholder: '[CARD]', mayMatch: hasDigit,
    // 13–19 digits, single spaces or hyphens between them, issuer digit 2–6 (Mastercard 2/5, Amex 3,
    // Visa 4, Discover 6), Luhn-valid.
    passes: [{ re: /(?<![\d.,-])[2-6]\d(?:[ -]?\d){11,17}(?!\d)/g, check: (m, p) => (luhnValid(m) ? [p, 1] : undefined) }],
  },
  ip: {
    name: 'ip', placeholder: '[IP]',
    mayMatch: (s) => s.includes('.') || s.includes(':'),
    passes: [{ re: IPV6, check: ipv6Check }, { re: IPV4 }],
  },
  phone: {
    name: 'phone', placeholder: '[PHONE]', mayMatch: hasDigit,
    passes: [{ re: /(?<![\w+.-])\+?\(?\d[\d ().-]{5,22}\d(?!\w)/g, check: phoneCheck }],
  },
};

/** The order detectors run in: specific shapes before the ones that would eat their digits. */
export const DETECTOR_ORDER: readonly DetectorName[] = ['token', 'api_key', 'email', 'iban', 'card', 'ip', 'phone'];
