// The bodies the saved-query writes validate (reference compat §1.1, §1.3, §1.5), moved here from the
// command service so the OpenAPI document describes exactly what is enforced: slugs, headers, and a
// revision's `data` ({formatting?, filtering?, windowing?}; output-only `trace_ids`/`traces` accepted
// and dropped; any other key → 422 naming it).
import { z } from 'zod';
import { finite, ints, NUMBER_LIMITS } from './numbers.ts';
import { savedQueryLeafMap } from './saved-queries.ts';
import { jsonValue, text, texts } from './text.ts';

const uuid = z.uuid({ error: 'value is not a valid uuid' });

const SLUG = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
export const querySlug = texts.slug.min(1).regex(SLUG, { error: "'slug' must be URL-safe." });

export const headerInput = {
  name: texts.name.nullish(),
  description: texts.description.nullish(),
  /** Tags and flags: maps of string/bool/nested leaves (numbers → 422), depth-checked before zod recurses. */
  tags: savedQueryLeafMap.nullish(),
  meta: jsonValue.optional(),
  flags: savedQueryLeafMap.nullish(),
};

// Stored as sent and compiled when the revision runs (a bound may be an epoch number as text there).
const windowing = z.strictObject({
  newest: texts.shortText.nullish(), oldest: texts.shortText.nullish(), next: z.uuid().nullish(),
  limit: ints.int32.nullish(), order: z.enum(['ascending', 'descending']).nullish(),
  interval: finite({ min: 0, max: NUMBER_LIMITS.int32Max }).positive().nullish(), rate: finite({ min: 0, max: 1 }).nullish(),
});
const formatting = z.strictObject({ focus: z.enum(['trace', 'span']).nullish(), format: z.enum(['agenta', 'opentelemetry']).nullish() });
export const revisionData = z.strictObject({
  formatting: formatting.nullish(), filtering: jsonValue.optional(), windowing: windowing.nullish(), trace_ids: jsonValue.optional(), traces: jsonValue.optional(),
});

export const queryCreateBody = z.object({ query: z.object({ slug: querySlug, ...headerInput, folder_id: uuid.nullish() }) });
export const queryEditBody = z.object({ query: z.object({ id: uuid.nullish(), ...headerInput, folder_id: uuid.nullish() }) });
export const queryVariantCreateBody = z.object({
  query_variant: z.object({ slug: querySlug, query_id: uuid.nullish(), artifact_id: uuid.nullish(), ...headerInput }),
});
export const queryVariantEditBody = z.object({ query_variant: z.object({ id: uuid.nullish(), ...headerInput }) });
const ref = z.object({ id: uuid.nullish(), slug: querySlug.nullish(), version: text({ max: 12, label: 'version' }).nullish() });
export const queryVariantForkBody = z.object({ query_variant: z.object({ slug: querySlug, ...headerInput }), query_variant_ref: ref, query_revision_ref: ref.nullish() });
export const queryRevisionEditBody = z.object({ query_revision: z.object({ id: uuid.nullish(), ...headerInput }) });
const revisionFields = {
  query_variant_id: uuid.nullish(), variant_id: uuid.nullish(), query_id: uuid.nullish(), artifact_id: uuid.nullish(),
  slug: querySlug.nullish(), ...headerInput,
};
export const queryRevisionCreateBody = z.object({ query_revision: z.object({ ...revisionFields, data: jsonValue.optional() }) });
export const queryRevisionCommitBody = z.object({ query_revision: z.object({ ...revisionFields, data: revisionData.nullish(), message: texts.description.nullish() }) });
export const simpleQueryCreateBody = z.object({ query: z.object({ slug: querySlug, ...headerInput, data: revisionData.nullish() }) });
export const simpleQueryEditBody = z.object({ query: z.object({ id: uuid.nullish(), ...headerInput, data: revisionData.nullish() }) });
