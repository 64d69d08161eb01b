// The deprecated flat parameter style of /tracing/spans/query and the analytics endpoints (reference
// §5.4): query parameters and/or a flat JSON body with the same names; the body wins per name. An
// unexpected key is a 422 (the reference silently ignored the whole body, i.e. ran an unfiltered
// query). A `null` counts as absent.
import type { Request } from 'express';
import type { z } from 'zod';
import { flatSpanQuery } from '@llm/contracts';
import { RequestValidationError } from '@llm/http';

/** The flat span query's fields (shared with the OpenAPI document, @llm/contracts). */
export const FlatQuerySchema = flatSpanQuery;

function objectOf(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function source(query: Record<string, unknown>, body: Record<string, unknown>, key: string | undefined): 'body' | 'query' {
  return key !== undefined && !Object.hasOwn(body, key) && Object.hasOwn(query, key) ? 'query' : 'body';
}

/** Where a flat field came from, for error locations: the body wins when both have it. */
export function sourceOf(req: Request, key: string): 'body' | 'query' {
  return source(objectOf(req.query), objectOf(req.body), key);
}

const present = (o: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));

/** The merged inputs, validated by `schema` (default: the flat span query's). Problems are a 422 whose
 * `loc` says where each field came from (`body` or `query`). */
export function flatInputs(req: Request): z.infer<typeof FlatQuerySchema>;
export function flatInputs<S extends z.ZodType>(req: Request, schema: S): z.infer<S>;
export function flatInputs(req: Request, schema: z.ZodType = FlatQuerySchema): unknown {
  if (req.body !== undefined && req.body !== null && (typeof req.body !== 'object' || Array.isArray(req.body))) {
    throw new RequestValidationError([{ loc: ['body'], msg: 'body must be a JSON object', type: 'type_error' }]);
  }
  const query = present(objectOf(req.query));
  const body = present(objectOf(req.body));
  const r = schema.safeParse({ ...query, ...body });
  if (!r.success) {
    throw new RequestValidationError(r.error.issues.map((i) => {
      const path = i.path.map((p) => (typeof p === 'number' ? p : String(p)));
      // Unknown keys are reported on the object itself, with the names in `keys`.
      const key = typeof path[0] === 'string' ? path[0] : i.code === 'unrecognized_keys' ? i.keys[0] : undefined;
      return { loc: [source(query, body, key), ...path], msg: i.message, type: i.code };
    }));
  }
  return r.data;
}
