// zod schemas of tracing bodies the query and command services validate: the span and trace query
// (filtering, windowing, saved-query refs) and the simple-trace edit. Moved here from the services
// unchanged, so the OpenAPI document can name them.
import { z } from 'zod';
import { jsonObject, jsonValue, openObject } from './text.ts';
import { simpleTraceRequest } from './tracing.ts';

/**
 * POST /spans/query and /traces/query: `filtering` and `windowing` are compiled by the filter
 * language; other fields (the saved-query refs `query_ref`, `query_variant_ref`,
 * `query_revision_ref`) are read by `savedQueryRefs`.
 */
export const spanQueryBody = openObject({ filtering: jsonValue.optional(), windowing: jsonValue.optional() });

/** PATCH /simple/traces/{id}: `data` replaces; an omitted tags/meta/references/links keeps the stored value. */
export const simpleTraceEdit = z.object({
  trace: z.object({
    data: jsonObject,
    tags: jsonObject.nullish(),
    meta: jsonObject.nullish(),
    references: simpleTraceRequest.shape.trace.shape.references.unwrap().nullish(),
    links: simpleTraceRequest.shape.trace.shape.links.unwrap().nullish(),
  }),
});
