// What deciding on an event yields: it is a fact, or it is refused with a typed code. The code is
// the API (the command maps it to an HTTP error through one table, rejections.ts); the message is
// for people and may change wording freely.

export interface Rejection<C extends string = string> {
  status: 'rejected';
  code: C;
  message: string;
  details?: Record<string, unknown>;
}

export type Decision<C extends string = string> = { status: 'accepted' } | Rejection<C>;

export const accepted = { status: 'accepted' } as const;

export function reject<C extends string>(code: C, message: string, details?: Record<string, unknown>): Rejection<C> {
  return details === undefined ? { status: 'rejected', code, message } : { status: 'rejected', code, message, details };
}

/**
 * Optimistic concurrency (DESIGN "Consistency"): a command read the aggregate at `expected` and the
 * event is a fact only if the aggregate is still there when its turn comes on the partition.
 * `expected` 0 means "no expectation" (the envelope default).
 */
export function checkVersion<C extends string>(code: C, what: string, expected: number, current: number): Decision<C> {
  if (expected === 0 || expected === current) return accepted;
  return reject(code, `The ${what} changed meanwhile (expected version ${expected}, current ${current}); read it again and retry.`,
    { expected_version: expected, current_version: current });
}
