// A lookup that could not get an answer, as opposed to an answer of "no such record". Verification
// must not turn this into "unverified": the API answers 503 and the user retries.
import { AppError } from '@llm/errors';

export type DnsLookupErrorCode = 'dns_timeout' | 'dns_failure';

export class DnsLookupError extends AppError {
  declare readonly code: DnsLookupErrorCode;
  /** The resolver's own code (ETIMEOUT, ECONNREFUSED, ESERVFAIL, EREFUSED, ECANCELLED …). */
  readonly dnsCode: string | undefined;
  readonly queriedName: string;

  constructor(code: DnsLookupErrorCode, queriedName: string, dnsCode: string | undefined, cause?: unknown) {
    const why = code === 'dns_timeout' ? 'did not answer in time' : `failed${dnsCode ? ` (${dnsCode})` : ''}`;
    super({ code, kind: 'unavailable', message: `The DNS lookup of ${queriedName} ${why}; please try again later.`, cause, retryable: true });
    this.name = 'DnsLookupError';
    this.dnsCode = dnsCode;
    this.queriedName = queriedName;
  }
}
