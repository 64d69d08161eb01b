// A record the topic would refuse for its size. Raised before anything is queued, so the request
// that carried it can be answered 413 and no other request's records travel with it.
export class RecordTooLargeError extends Error {
  constructor(readonly bytes: number, readonly limit: number) {
    super(`A record of ${bytes} bytes exceeds the ${limit} byte record limit.`);
    this.name = 'RecordTooLargeError';
  }
}

/** Broker refusals about one batch's records (size, format), as both clients report them. */
export function isRecordRefusal(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const text = `${String((e as { type?: unknown }).type ?? '')} ${String((e as { code?: unknown }).code ?? '')} ${String((e as { message?: unknown }).message ?? '')}`;
    if (/MESSAGE_TOO_LARGE|RECORD_LIST_TOO_LARGE|INVALID_RECORD|CORRUPT_MESSAGE|too large|RecordTooLarge/i.test(text)) return true;
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((x) => isRecordRefusal(x))) return true;
  }
  return false;
}
