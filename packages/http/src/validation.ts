// Request validation with zod, rendered as the spec's HTTPValidationError (422 detail[{loc,msg,type}]).
import type { z } from 'zod';
import { parseUuid } from '@llm/contracts';
import { notFound } from '@llm/errors';

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

/** A path parameter that must be a UUID (any usual spelling, answered canonical): else a 422 naming it. */
export function uuidParam(params: Record<string, unknown>, name: string): string {
  const id = parseUuid(String(params[name] ?? ''));
  if (id === undefined) throw new RequestValidationError([{ loc: ['path', name], msg: 'value is not a valid uuid', type: 'uuid_parsing' }]);
  return id;
}

/**
 * The project a path names, when it is the caller's own: a credential acts in one project, so a
 * malformed id is a 422 (as a typed path parameter) and any other project, existing or not, is 404.
 */
export function callerProjectParam(params: Record<string, unknown>, callerProjectId: string, name = 'project_id'): string {
  const id = uuidParam(params, name);
  if (id !== callerProjectId.toLowerCase()) throw notFound('project_not_found', 'Project not found');
  return id;
}
