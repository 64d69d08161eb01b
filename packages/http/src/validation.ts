// Request validation with zod, rendered as the spec's HTTPValidationError (422 detail[{loc,msg,type}]).
import type { z } from 'zod';

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class RequestValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super('request validation failed');
    this.name = 'RequestValidationError';
  }
}

export function issuesOf(err: z.ZodError, loc0: string): ValidationIssue[] {
  return err.issues.map((i) => ({
    loc: [loc0, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: i.message,
    type: i.code,
  }));
}

/** Parses `value` with `schema`, or throws a 422. `loc0` is `body`, `query` or `path`. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, loc0: 'body' | 'query' | 'path' = 'body'): z.infer<S> {
  if (loc0 === 'body' && value === undefined) {
    throw new RequestValidationError([{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
  }
  const r = schema.safeParse(value);
  if (!r.success) throw new RequestValidationError(issuesOf(r.error, loc0));
  return r.data;
}
