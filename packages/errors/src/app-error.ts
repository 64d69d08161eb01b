// One application error for every layer. Domain code raises kinds, never HTTP statuses;
// the HTTP layer (packages/http) maps kinds to statuses.

export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  /** The thing existed and is no longer usable (an expired invitation): 410. */
  | 'gone'
  | 'unprocessable'
  | 'too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable'
  | 'bad_gateway'
  | 'internal';

export interface AppErrorOptions {
  code: string;
  kind: ErrorKind;
  message: string;
  retryable?: boolean;
  details?: unknown;
  /** The body nests the message with the details: `{"detail": {"message": …, …details}}` (the reference's shape for some codes). */
  nested?: boolean;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: string;
  readonly kind: ErrorKind;
  readonly retryable: boolean;
  readonly details: unknown;
  readonly nested: boolean;

  constructor(opts: AppErrorOptions) {
    super(opts.message, { cause: opts.cause });
    this.name = 'AppError';
    this.code = opts.code;
    this.kind = opts.kind;
    this.retryable = opts.retryable ?? (opts.kind === 'unavailable' || opts.kind === 'rate_limited');
    this.details = opts.details;
    this.nested = opts.nested ?? false;
  }
}

export const invalid = (code: string, message: string, details?: unknown): AppError =>
  new AppError({ code, kind: 'invalid', message, details });
export const unauthenticated = (message = 'Unauthorized'): AppError =>
  new AppError({ code: 'unauthenticated', kind: 'unauthenticated', message });
export const notFound = (code: string, message: string): AppError => new AppError({ code, kind: 'not_found', message });
export const conflict = (code: string, message: string, details?: unknown): AppError =>
  new AppError({ code, kind: 'conflict', message, details });
export const unavailable = (code: string, message: string, cause?: unknown): AppError =>
  new AppError({ code, kind: 'unavailable', message, cause });
/** An upstream we call (e.g. the agent runner) could not be reached or answered something unreadable. */
export const badGateway = (code: string, message: string, cause?: unknown): AppError =>
  new AppError({ code, kind: 'bad_gateway', message, cause });
