// The answers both sides build from the artifact tables: a revision's data as a read shows it (a
// testset's id list materialised into its testcases), the simple view of an artifact, and a
// revision resolved from references with the reference's 400s (compat §1.4, evaluations §1.3).
import type { ArtifactRef } from '@llm/contracts';
import {
  readArtifact, readArtifactBySlug, readHead, readLatestRevision, readRevision, readTestcasesByIds, readVariant, readVariants,
  type ArtifactRevisionRow, type ArtifactRow, type ArtifactVariantRow, type JsonMap,
} from './reads.ts';
import { familyOf, simpleView, testcaseView, type ArtifactEntity } from './views.ts';

export interface DataOptions { testcaseIds?: boolean | null | undefined; testcases?: boolean | null | undefined; window?: { limit?: number | null | undefined } | null | undefined }

/** A revision's data as reads show it: a testset's `testcase_ids` with its `testcases` (both by default). */
export async function revisionData(q: Parameters<typeof readTestcasesByIds>[0], r: ArtifactRevisionRow, family: string, opts: DataOptions = {}): Promise<JsonMap | null> {
  if (family !== 'testset' || r.data === null) return r.data;
  let ids = Array.isArray(r.data.testcase_ids) ? r.data.testcase_ids.filter((x): x is string => typeof x === 'string') : [];
  const limit = opts.window?.limit;
  if (typeof limit === 'number') ids = ids.slice(0, limit);
  const out: JsonMap = {};
  if (opts.testcaseIds !== false) out.testcase_ids = ids;
  if (opts.testcases !== false) out.testcases = (await readTestcasesByIds(q, r.artifact_id, ids)).map(testcaseView) as JsonMap[];
  return out;
}

/** The simple view of an artifact of the project (undefined: unknown here, or another entity's). */
export async function simpleArtifactAnswer(
  q: Parameters<typeof readArtifact>[0], projectId: string, entity: ArtifactEntity, id: string,
  ids: { variant?: boolean; revision?: boolean } = {},
): Promise<Record<string, unknown> | undefined> {
  const a = await readArtifact(q, projectId, familyOf(entity), id);
  if (!a || !ofEntity(a, entity)) return undefined;
  return simpleAnswerOf(q, a, ids);
}

export async function simpleAnswerOf(q: Parameters<typeof readArtifact>[0], a: ArtifactRow, ids: { variant?: boolean; revision?: boolean } = {}): Promise<Record<string, unknown>> {
  const head = await readHead(q, a);
  const data = head.revision ? await revisionData(q, head.revision, a.family) : null;
  return simpleView(a, head.revision, data, {
    ...(ids.variant && head.variant ? { variant_id: head.variant.id } : {}),
    ...(ids.revision && head.revision ? { revision_id: head.revision.id } : {}),
  });
}

/** Whether an artifact is shown by an entity's routes: applications and evaluators are workflows with their role flag. */
export function ofEntity(a: ArtifactRow, entity: ArtifactEntity): boolean {
  if (entity === 'application') return a.flags?.is_application === true;
  if (entity === 'evaluator') return a.flags?.is_evaluator === true;
  return true;
}

export interface RetrieveRefs { artifact?: ArtifactRef | null | undefined; variant?: ArtifactRef | null | undefined; revision?: ArtifactRef | null | undefined }
export interface Resolved { artifact: ArtifactRow; variant: ArtifactVariantRow; revision: ArtifactRevisionRow }
export type Resolution = { status: 'found'; found: Resolved } | { status: 'none' } | { status: 'invalid'; message: string };

const identifies = (r: ArtifactRef | null | undefined): boolean => !!r && (r.id != null || r.slug != null);
const py = (v: string): string => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** Resolves references to one revision (compat §1.4 with the entity's name in every message). */
export async function resolveRevision(q: Parameters<typeof readArtifact>[0], projectId: string, entity: ArtifactEntity, refs: RetrieveRefs): Promise<Resolution> {
  const e = entity;
  const family = familyOf(entity);
  if (refs.variant && !identifies(refs.variant) && refs.variant.version != null) {
    return { status: 'invalid', message: `${e}_variant_ref carries only \`version\`, but variants have no \`version\` field. Identify the variant by ${e}_variant_ref.id or ${e}_variant_ref.slug.` };
  }
  if (refs.revision && !identifies(refs.revision) && refs.revision.version != null && !identifies(refs.variant) && !identifies(refs.artifact)) {
    return { status: 'invalid', message: `${e}_revision_ref.version is a per-variant sequence number and requires a ${e}_variant_ref or ${e}_ref to scope it. Provide either, or identify the revision by ${e}_revision_ref.id or ${e}_revision_ref.slug (both are project-unique).` };
  }
  let revision: ArtifactRevisionRow | undefined;
  let variant: ArtifactVariantRow | undefined;
  let artifact: ArtifactRow | undefined;
  const version = refs.revision?.version != null ? Number(refs.revision.version) : undefined;
  const versioned = async (v: ArtifactVariantRow): Promise<ArtifactRevisionRow | undefined> =>
    version === undefined ? readLatestRevision(q, v.id) : Number.isInteger(version) ? readRevision(q, projectId, family, { variantId: v.id, version }) : undefined;
  if (refs.revision && identifies(refs.revision)) {
    revision = await readRevision(q, projectId, family, refs.revision.id != null ? { id: refs.revision.id } : { slug: refs.revision.slug ?? undefined });
  } else if (refs.variant && identifies(refs.variant)) {
    variant = await readVariant(q, projectId, family, refs.variant.id != null ? { id: refs.variant.id } : { slug: refs.variant.slug ?? undefined });
    revision = variant && await versioned(variant);
  } else if (refs.artifact && identifies(refs.artifact)) {
    artifact = refs.artifact.id != null ? await readArtifact(q, projectId, family, refs.artifact.id) : await readArtifactBySlug(q, projectId, family, refs.artifact.slug ?? '');
    variant = artifact && (await readVariants(q, artifact.id))[0];
    revision = variant && await versioned(variant);
  } else {
    return { status: 'none' };
  }
  if (!revision) return { status: 'none' };
  variant ??= await readVariant(q, projectId, family, { id: revision.variant_id });
  artifact ??= await readArtifact(q, projectId, family, revision.artifact_id);
  if (!variant || !artifact) return { status: 'none' };
  const mismatches: string[] = [];
  const check = (field: string, sent: string | null | undefined, actualField: string, actual: string): void => {
    if (sent != null && sent.toLowerCase() !== actual.toLowerCase()) mismatches.push(`${field}=${py(sent)} does not match resolved revision's ${actualField}=${py(actual)}`);
  };
  check(`${e}_ref.id`, refs.artifact?.id, 'artifact_id', artifact.id);
  check(`${e}_ref.slug`, refs.artifact?.slug, 'artifact_slug', artifact.slug);
  check(`${e}_variant_ref.id`, refs.variant?.id, 'variant_id', variant.id);
  check(`${e}_variant_ref.slug`, refs.variant?.slug, 'variant_slug', variant.slug);
  check(`${e}_revision_ref.id`, refs.revision?.id, 'id', revision.id);
  check(`${e}_revision_ref.slug`, refs.revision?.slug, 'slug', revision.slug);
  check(`${e}_revision_ref.version`, refs.revision?.version, 'version', String(revision.version));
  if (mismatches.length > 0) return { status: 'invalid', message: mismatches.join('; ') };
  return { status: 'found', found: { artifact, variant, revision } };
}
