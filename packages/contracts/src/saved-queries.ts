// zod schemas of the saved-query bodies: creating a query with its first revision, committing a
// revision, and the `query_ref` / `query_variant_ref` / `query_revision_ref` of span and trace
// queries. Whether a filtering or windowing object is usable is checked by the filtering-language
// compiler where it is used (the command at commit time), not here. The list and retrieve bodies
// of the query side are here too: every field is a bounded primitive (text.ts, numbers.ts, dates.ts).
import { z } from 'zod';
import { storedDateTime } from './dates.ts';
import { ints } from './numbers.ts';
import { boundedJson, jsonValue, textRecord, texts } from './text.ts';

/** Lowercase letters, digits, `-` and `_`, starting with a letter or digit, at most 64 characters. */
export const SAVED_QUERY_SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const SLUG_RULE = 'must be 1-64 characters of lowercase letters, digits, "-" or "_", starting with a letter or digit';

export const savedQuerySlug = texts.slug.regex(SAVED_QUERY_SLUG, { error: `slug ${SLUG_RULE}` });

const focus = z.enum(['trace', 'span'], { error: 'focus must be one of: trace, span' });
const format = z.enum(['agenta', 'opentelemetry'], { error: 'format must be one of: agenta, opentelemetry' });

export const savedQueryRevisionInput = z.strictObject({
  /** The filtering and windowing objects of span/trace queries (reference §5.2, §5.3). */
  data: z.strictObject({ filtering: jsonValue.optional(), windowing: jsonValue.optional() }).default({}),
  /** `focus` decides which endpoint may use the revision (the other answers 409). */
  formatting: z.strictObject({ focus: focus.optional(), format: format.optional() }).default({}),
  message: texts.description.optional(),
});
export type SavedQueryRevisionInput = z.infer<typeof savedQueryRevisionInput>;

/** `POST /queries/`: a query, its default variant and revision 1. */
export const savedQueryCreate = z.strictObject({
  query: z.strictObject({
    /** Unique in the project; generated from the name (or at random) when absent. */
    slug: savedQuerySlug.optional(),
    name: texts.name.optional(),
    description: texts.description.optional(),
  }).default({}),
  query_revision: savedQueryRevisionInput.default({ data: {}, formatting: {} }),
});
export type SavedQueryCreate = z.infer<typeof savedQueryCreate>;

/** `POST /queries/{query_id}/revisions/`: the next revision of the default variant. */
export const savedQueryCommit = z.strictObject({
  query_revision: savedQueryRevisionInput,
  /** Optimistic concurrency: the version the client last saw; a different current version → 409. */
  expected_version: z.number().int().min(1).max(2_147_483_647).optional(),
});
export type SavedQueryCommit = z.infer<typeof savedQueryCommit>;

/** A revision's version as the reference writes it: a JSON string of its number, from "0" (a number → 422). */
const version = texts.id.regex(/^(0|[1-9][0-9]{0,8})$/, { error: 'version must be a string of digits, e.g. "0"' });

/** `{id?, slug?, version?}` as in the interface's references; version only on revision refs. */
export const savedQueryRef = z.strictObject({
  id: z.uuid({ error: 'id must be a UUID' }).nullish(),
  slug: texts.slug.min(1).regex(/^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/, { error: "'slug' must be URL-safe." }).nullish(),
  version: version.nullish(),
});
export type SavedQueryRef = z.infer<typeof savedQueryRef>;

export const savedQueryRefs = z.object({
  query_ref: savedQueryRef.nullish(),
  query_variant_ref: savedQueryRef.nullish(),
  query_revision_ref: savedQueryRef.nullish(),
});
export type SavedQueryRefs = z.infer<typeof savedQueryRefs>;

/** Tags and flags: maps of string, boolean and null leaves and nested maps (a number → 422). */
export type SavedQueryLeaf = string | boolean | null | { [k: string]: SavedQueryLeaf };
const leaf: z.ZodType<SavedQueryLeaf> = z.lazy(() => z.union([texts.longText, z.boolean(), z.null(), textRecord(leaf)]));
/** Depth and text are checked before the recursive schema runs (a 20,000-deep map is a 422, not a stack overflow). */
export const savedQueryLeafMap = boundedJson(textRecord(leaf));

const order = z.enum(['ascending', 'descending'], { error: 'order must be one of: ascending, descending' });

/** The windowing of the list routes (§1.3): dates the stores hold, a Postgres-sized limit. */
export const savedQueryListWindow = z.object({
  newest: storedDateTime.nullish(), oldest: storedDateTime.nullish(), next: z.uuid({ error: 'next must be a UUID' }).nullish(),
  limit: ints.int32.nullish(), order: order.nullish(),
});
export type SavedQueryListWindow = z.infer<typeof savedQueryListWindow>;

const refList = z.array(savedQueryRef).nullish();
const header = { tags: savedQueryLeafMap.nullish(), flags: savedQueryLeafMap.nullish(), meta: jsonValue.optional() };
const listing = { include_archived: z.boolean().nullish(), windowing: savedQueryListWindow.nullish() };

/** `POST /simple/queries/query`. */
export const simpleSavedQueriesQuery = z.object({
  query: z.object(header).nullish(),
  query_refs: refList, ...listing,
});
/** `POST /queries/variants/query`. */
export const savedQueryVariantsQuery = z.object({
  query_variant: z.object({
    slug: texts.shortText.nullish(), slugs: z.array(texts.shortText).nullish(), name: texts.name.nullish(), description: texts.description.nullish(), ...header,
  }).nullish(),
  query_refs: refList, query_variant_refs: refList, ...listing,
});
/** `POST /queries/revisions/query`. */
export const savedQueryRevisionsQuery = z.object({
  query_revision: z.object({
    slug: texts.shortText.nullish(), slugs: z.array(texts.shortText).nullish(), author: texts.id.nullish(), authors: z.array(texts.id).nullish(),
    message: texts.description.nullish(), name: texts.name.nullish(), description: texts.description.nullish(), ...header,
  }).nullish(),
  query_refs: refList, query_variant_refs: refList, query_revision_refs: refList, ...listing,
});
/** `POST /queries/revisions/retrieve`: its windowing only pages the trace execution (the window compiler checks it). */
export const savedQueryRetrieve = z.object({
  query_ref: savedQueryRef.nullish(), query_variant_ref: savedQueryRef.nullish(), query_revision_ref: savedQueryRef.nullish(),
  include_trace_ids: z.boolean().nullish(), include_traces: z.boolean().nullish(), windowing: jsonValue.optional(),
});
/** `POST /queries/revisions/log`. */
export const savedQueryLog = z.object({
  query_revisions: z.object({
    query_id: z.uuid().nullish(), artifact_id: z.uuid().nullish(), query_variant_id: z.uuid().nullish(), variant_id: z.uuid().nullish(),
    query_revision_id: z.uuid().nullish(), revision_id: z.uuid().nullish(), depth: ints.int32.nullish(),
  }),
});

const stamp = z.string();

export const savedQueryView = z.object({
  id: z.uuid(),
  slug: z.string(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  created_at: stamp,
  created_by_id: z.string().nullable(),
});
export const savedQueryVariantView = z.object({
  id: z.uuid(),
  slug: z.string(),
  query_id: z.uuid(),
  created_at: stamp,
});
export const savedQueryRevisionView = z.object({
  id: z.uuid(),
  slug: z.string(),
  version: z.number().int(),
  query_id: z.uuid(),
  query_variant_id: z.uuid(),
  data: z.object({ filtering: z.unknown().optional(), windowing: z.unknown().optional() }),
  formatting: z.object({ focus: focus.optional(), format: format.optional() }),
  message: z.string().nullable(),
  created_at: stamp,
  created_by_id: z.string().nullable(),
});

/** The answer of create, commit and the fetches: the query, its variant and one revision. */
export const savedQueryResponse = z.object({
  query: savedQueryView,
  query_variant: savedQueryVariantView,
  query_revision: savedQueryRevisionView,
});
export type SavedQueryResponse = z.infer<typeof savedQueryResponse>;

export const savedQueryRevisionsResponse = z.object({
  count: z.number().int(),
  query_revisions: z.array(savedQueryRevisionView),
});
export type SavedQueryRevisionsResponse = z.infer<typeof savedQueryRevisionsResponse>;
