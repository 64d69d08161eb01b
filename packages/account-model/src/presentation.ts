// How a rejection reads to a client, declared once per code in its aggregate's `rejections` table
// (rules.ts): an error kind (the status, through the error handler's one kind → status map), or a
// kind with the body the reference gives that code. Routes do not answer a code any other way:
// they throw `rejectionError(r)`, and a test walks every code of every aggregate through it.
import { AppError, type ErrorKind } from '@llm/errors';
import type { Rejection } from './decision.ts';

export type RejectionBody =
  /** `{"detail": {"message": …, …details}}`. */
  | 'nested'
  /** `{"detail": {"message": …, "error": "<code>"}}` (the reference's invitation acceptance). */
  | 'error_and_message'
  /** `{"detail": {"message": …, "conflict": {…details}}}` (the reference's slug conflicts). */
  | 'conflict';

export type Presentation = ErrorKind | { readonly kind: ErrorKind; readonly body: RejectionBody };

/** Every code of an aggregate with its presentation. */
export type RejectionPresentations<C extends string> = { readonly [K in C]: Presentation };

export const kindOf = (p: Presentation): ErrorKind => (typeof p === 'string' ? p : p.kind);

/** The client's error for a rejection presented as `p`: the code is the error code, the message its text. */
export function presentRejection(r: Rejection, p: Presentation): AppError {
  // The store refused the event's data: the client sent text it cannot hold (the one renamed code).
  if (r.code === 'unstorable') return new AppError({ code: 'unstorable_input', kind: kindOf(p), message: `The change cannot be stored: ${r.message}` });
  if (typeof p === 'string') return new AppError({ code: r.code, kind: p, message: r.message, ...(r.details ? { details: r.details } : {}) });
  const details = p.body === 'error_and_message' ? { error: r.code } : p.body === 'conflict' ? { conflict: r.details ?? {} } : r.details;
  return new AppError({ code: r.code, kind: p.kind, message: r.message, ...(details ? { details } : {}), nested: true });
}
