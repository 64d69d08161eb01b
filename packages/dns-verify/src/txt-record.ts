// The record an organization publishes. Name and value are the reference system's, byte for byte,
// so instructions, scripts and records made for it keep working here.
export const TXT_RECORD_PREFIX = '_agenta-verification';

export interface TxtRecord {
  readonly type: 'TXT';
  /** Fully qualified, without the trailing dot. */
  readonly name: string;
  readonly value: string;
}

/** `_agenta-verification.<domain>`; `domain` must already be normalised (see normalizeDomain). */
export const txtRecordName = (domain: string): string => `${TXT_RECORD_PREFIX}.${domain}`;

/** `_agenta-verification=<token>`. */
export const txtRecordValue = (token: string): string => `${TXT_RECORD_PREFIX}=${token}`;

export const txtRecord = (domain: string, token: string): TxtRecord => ({
  type: 'TXT',
  name: txtRecordName(domain),
  value: txtRecordValue(token),
});

/**
 * What a published TXT value says once DNS-console habits are undone: surrounding whitespace and
 * one pair of surrounding quotes (people paste `"value"` into consoles that add their own quotes).
 */
export function publishedValue(raw: string): string {
  const trimmed = raw.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1).trim() : trimmed;
}
