// The ownership check: is the expected value among the TXT records at the expected name?
import { invalid } from '@llm/errors';
import { normalizeDomain } from './domain-name.ts';
import { lookupTxt, type TxtLookupOptions } from './txt-lookup.ts';
import { publishedValue, txtRecord, type TxtRecord } from './txt-record.ts';

export interface TxtVerification {
  readonly verified: boolean;
  /** Every TXT value found at the record's name (chunks joined), for the "we found …" message. */
  readonly found: string[];
  /** The record that was looked for. */
  readonly record: TxtRecord;
}

/**
 * Looks up `_agenta-verification.<domain>` and reports whether one of its values is
 * `_agenta-verification=<token>`. Other TXT values at that name do not matter. Throws
 * `DnsLookupError` when DNS cannot answer (never "unverified" for a resolver outage) and an
 * `invalid` AppError for a domain that is not a domain name.
 */
export async function verifyTxt(domain: string, token: string, opts: TxtLookupOptions = {}): Promise<TxtVerification> {
  const name = normalizeDomain(domain);
  if (!name.ok) throw invalid('invalid_domain', name.error);
  const record = txtRecord(name.value, token);
  const found = await lookupTxt(record.name, opts);
  return { verified: found.some((v) => publishedValue(v) === record.value), found, record };
}
