// Human evaluations (reference accounts §12) and the minimal applications and testsets they read,
// created through the reference's simple routes (compat §4.2). Unknown top-level fields are
// ignored as the reference's clients expect; unknown keys of an application's or a testset's
// `data` are refused (422), as the reference refuses them.
import { z } from 'zod';
import { jsonObject, jsonValue, text, textRecord, texts, TEXT_LIMITS } from './text.ts';

const slug = text({ min: 1, max: TEXT_LIMITS.slug, label: 'slug' });
const headers = textRecord(text({ max: TEXT_LIMITS.shortText * 8 })).nullish();

/** An application's data (§4.2): only these keys. */
export const applicationData = z.strictObject({
  uri: texts.url.nullish(),
  url: texts.url.nullish(),
  headers,
  runtime: texts.shortText.nullish(),
  script: texts.longText.nullish(),
  schemas: z.strictObject({ inputs: jsonValue.optional(), outputs: jsonValue.optional(), parameters: jsonValue.optional() }).nullish(),
  parameters: jsonObject.nullish(),
});
export type ApplicationData = z.infer<typeof applicationData>;

export const simpleApplicationCreate = z.object({
  application: z.object({
    slug,
    name: texts.name.nullish(),
    description: texts.description.nullish(),
    tags: jsonObject.nullish(),
    meta: jsonObject.nullish(),
    flags: jsonObject.nullish(),
    data: applicationData.nullish(),
  }),
});
export type SimpleApplicationCreate = z.infer<typeof simpleApplicationCreate>;

/** Ids as sent: any string; the handler tells a malformed one (400) from an unknown one (404). */
const idText = texts.id;

export const applicationVariantCreate = z.object({
  application_variant: z.object({
    slug,
    name: texts.name.nullish(),
    application_id: idText,
    flags: jsonObject.nullish(),
    tags: jsonObject.nullish(),
  }),
});
export type ApplicationVariantCreate = z.infer<typeof applicationVariantCreate>;

export const applicationRevisionCommit = z.object({
  application_revision: z.object({
    application_id: idText,
    application_variant_id: idText,
    slug: texts.slug.nullish(),
    message: texts.description.nullish(),
    data: applicationData.nullish(),
  }),
});
export type ApplicationRevisionCommit = z.infer<typeof applicationRevisionCommit>;

/** A testset's data: its rows only (§4.2), each a flat `{column: value}` object. */
export const simpleTestsetCreate = z.object({
  testset: z.object({
    slug,
    name: texts.name.nullish(),
    description: texts.description.nullish(),
    tags: jsonObject.nullish(),
    meta: jsonObject.nullish(),
    data: z.strictObject({ testcases: z.array(z.object({ data: jsonObject })) }),
  }),
});
export type SimpleTestsetCreate = z.infer<typeof simpleTestsetCreate>;

export const HUMAN_EVALUATION_TYPE_VALUES = ['human_a_b_testing', 'single_model_test'] as const;

/** POST /human-evaluations (§12): every field required; extra keys (evaluation_type_settings, …) ignored. */
export const humanEvaluationCreate = z.object({
  app_id: idText,
  variant_ids: z.array(idText),
  evaluation_type: z.enum(HUMAN_EVALUATION_TYPE_VALUES),
  inputs: z.array(texts.shortText),
  testset_id: idText,
  status: texts.shortText,
});
export type HumanEvaluationCreate = z.infer<typeof humanEvaluationCreate>;

export const humanEvaluationList = z.object({ app_id: idText });

/** One item of GET /human-evaluations (spec "HumanEvaluation (list item)"). */
export interface HumanEvaluationView {
  id: string; app_id: string; project_id: string; evaluation_type: string;
  variant_ids: string[]; variant_names: string[]; variants_revision_ids: string[]; revisions: string[];
  testset_id: string; testset_name: string; status: string; created_at: string; updated_at: string;
}
