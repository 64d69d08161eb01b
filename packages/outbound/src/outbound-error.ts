// The one error every outbound failure becomes. It is an AppError, so the central HTTP error
// handler maps it without help: a bad or forbidden URL is the caller's mistake (400), anything the
// far side did is "unavailable" (503). Callers with their own verdict (an SSO `test` that records a
// failure, a webhook delivery that records code 0) switch on `code` instead.
import { AppError, type ErrorKind } from '@llm/errors';

export type OutboundErrorCode =
  | 'bad_url'
  | 'blocked_target'
  | 'timeout'
  | 'too_large'
  | 'http_status'
  | 'bad_response'
  | 'transport';

export interface OutboundErrorOptions {
  /** The HTTP status, for `http_status` (and `too_large` when the response had one). */
  status?: number;
  /**
   * The refused or failing address. Deliberately not part of the message: messages reach API
   * clients, and echoing internal DNS answers would turn the guard into a network scanner.
   */
  address?: string;
  cause?: unknown;
}

const KIND: Record<OutboundErrorCode, ErrorKind> = {
  bad_url: 'invalid',
  blocked_target: 'invalid',
  timeout: 'unavailable',
  too_large: 'unavailable',
  http_status: 'unavailable',
  bad_response: 'unavailable',
  transport: 'unavailable',
};

export class OutboundError extends AppError {
  declare readonly code: OutboundErrorCode;
  readonly status: number | undefined;
  readonly address: string | undefined;

  constructor(code: OutboundErrorCode, message: string, opts: OutboundErrorOptions = {}) {
    super({ code, kind: KIND[code], message, cause: opts.cause, retryable: isRetryable(code, opts.status) });
    this.name = 'OutboundError';
    this.status = opts.status;
    this.address = opts.address;
  }
}

function isRetryable(code: OutboundErrorCode, status: number | undefined): boolean {
  if (code === 'timeout' || code === 'transport') return true;
  if (code === 'http_status') return status !== undefined && (status === 429 || status >= 500);
  return false;
}

export const isOutboundError = (err: unknown): err is OutboundError => err instanceof OutboundError;
