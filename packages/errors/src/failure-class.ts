// How a consumer treats a failure to apply a record (STYLE.md → Errors → Consumers):
// - `transient`: the store is down, slow or out of capacity. Wait with capped backoff and retry the
//   same records; never skip them.
// - `deterministic`: this record can never be applied as it is (undecodable, the store refuses its
//   data, a rule rejects it). Set it aside at once — dead-letter topic or a recorded rejection — so
//   it does not stall the records behind it.
// Each store adapter owns a classifier for its own errors (`classifyPostgresError`,
// `classifyClickhouseError`); this module holds the part every classifier shares.

export type FailureClass = 'transient' | 'deterministic';

export type FailureClassifier = (err: unknown) => FailureClass;

/** Socket-level codes Node reports for a peer that is away, slow or restarting (one list for every client). */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
  'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ERR_SOCKET_CLOSED',
]);

export const isNetworkErrorCode = (code: unknown): boolean => typeof code === 'string' && NETWORK_CODES.has(code);

export function isNetworkError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (isNetworkErrorCode((e as { code?: unknown }).code)) return true;
    const msg = (e as { message?: unknown }).message;
    if (typeof msg === 'string' && /^(socket hang up|Connection terminated|fetch failed|Client network socket disconnected)/.test(msg)) return true;
  }
  return false;
}

/**
 * Errors raised by our own code on a record's content (a JSON too deep for the stack, a value of the
 * wrong type): the same record fails the same way every time. A network error is never one of them.
 */
export function isProgramError(err: unknown): boolean {
  if (isNetworkError(err)) return false;
  return err instanceof RangeError || err instanceof TypeError || err instanceof SyntaxError || err instanceof URIError;
}

/** The fallback for errors no store classifier recognised: program errors are deterministic, the rest waits. */
export function classifyUnknownError(err: unknown): FailureClass {
  return isProgramError(err) ? 'deterministic' : 'transient';
}

/** A one-line reason for a record set aside (stored with the rejection or dead letter). */
export function failureReason(err: unknown, max = 500): string {
  const e = err as { code?: unknown; type?: unknown; message?: unknown } | null;
  const code = typeof e?.type === 'string' ? e.type : typeof e?.code === 'string' ? e.code : undefined;
  const msg = typeof e?.message === 'string' ? e.message : String(err);
  const oneLine = msg.replace(/\s+/g, ' ').trim();
  const text = code && !oneLine.includes(code) ? `${code}: ${oneLine}` : oneLine;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
