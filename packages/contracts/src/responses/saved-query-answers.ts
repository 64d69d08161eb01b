// zod schemas of the saved-query answers as the handlers send them (packages/accounts-read
// saved-queries.ts views, in `{count, …}` envelopes). Absent values are left out, never null (the
// reference's responses omit nulls), so every field but the ids and slug is optional.
// (saved-queries.ts's savedQueryResponse is an older, nested shape no handler sends.)
import { z } from 'zod';
import { pageWindowing } from './tracing-reads.ts';

const count = z.number().int().min(0);
const openJson = z.record(z.string(), z.unknown());

const header = {
  name: z.string().optional(),
  description: z.string().optional(),
  flags: openJson.optional(),
  tags: openJson.optional(),
  meta: z.unknown().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  deleted_at: z.string().optional(),
  created_by_id: z.string().optional(),
  updated_by_id: z.string().optional(),
  deleted_by_id: z.string().optional(),
};

export const savedQueryBody = z.object({ id: z.uuid(), slug: z.string(), ...header, folder_id: z.string().optional() });
export const simpleSavedQueryBody = savedQueryBody.extend({ data: openJson.optional(), variant_id: z.uuid().optional(), revision_id: z.uuid().optional() });
export const savedQueryVariantBody = z.object({
  id: z.uuid(), slug: z.string(), ...header, query_id: z.uuid(), artifact_id: z.uuid(), query_slug: z.string().optional(), artifact_slug: z.string().optional(),
});
export const savedQueryRevisionBody = z.object({
  id: z.uuid(), slug: z.string(), ...header,
  /** The revision number, as text (the reference's type). */
  version: z.string(),
  query_id: z.uuid(), artifact_id: z.uuid(), query_variant_id: z.uuid(), variant_id: z.uuid(),
  query_slug: z.string().optional(), artifact_slug: z.string().optional(), query_variant_slug: z.string().optional(), variant_slug: z.string().optional(),
  author: z.string().optional(), date: z.string().optional(), message: z.string().optional(),
  /** The stored filtering and windowing. */
  data: openJson.optional(),
});

/** One query (fetch, create, edit, archive): `{count: 1, query}` or `{count: 0}`. */
export const savedQueryAnswer = z.object({ count, query: savedQueryBody.optional() });
export const savedQueriesAnswer = z.object({ count, queries: z.array(savedQueryBody) });
export const simpleSavedQueryAnswer = z.object({ count, query: simpleSavedQueryBody.optional() });
export const simpleSavedQueriesAnswer = z.object({ count, queries: z.array(simpleSavedQueryBody) });
export const savedQueryVariantAnswer = z.object({ count, query_variant: savedQueryVariantBody.optional() });
export const savedQueryVariantsAnswer = z.object({ count, query_variants: z.array(savedQueryVariantBody) });
export const savedQueryRevisionAnswer = z.object({ count, query_revision: savedQueryRevisionBody.optional() });
export const savedQueryRevisionsAnswer = z.object({ count, query_revisions: z.array(savedQueryRevisionBody) });

const reference = z.object({ id: z.uuid(), slug: z.string().optional() });
/**
 * POST /queries/revisions/retrieve: the revision (its `data` gains `trace_ids`, and `traces` when
 * asked, once the stored filter ran), the cursor when that run was cut, and the resolved references.
 */
export const savedQueryRetrieveAnswer = z.object({
  count,
  query_revision: savedQueryRevisionBody.optional(),
  windowing: pageWindowing.optional(),
  retrieval_info: z.object({
    references: z.object({ query: reference, query_variant: reference, query_revision: reference.extend({ version: z.string() }) }),
  }).optional(),
});
