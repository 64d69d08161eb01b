// Versioned artifacts (reference evaluations §1.2, compat §1.1): one model for every family —
// testsets, and workflows (applications and evaluators are workflows with a role flag). An
// artifact has variants; a variant has revisions numbered 0, 1, … . Slugs are unique per project
// and family at each level. Every event of one family in a project shares a stream key, so slugs
// and version numbers are decided in log order: of two commits claiming the same version of a
// variant, the later one is refused, early by the command and identically on every replay.
// What differs by family (a revision's `data`, what a view forces) is declared in kinds/. Saved
// queries are the `query` family; their own event types (accounts.query.*, three generations of
// them in old logs) are translated into these and decided here (query-events.ts).
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, reject, type Decision } from '../../decision.ts';
import type { RejectionPresentations } from '../../presentation.ts';
import { isUuid, sameId } from '../ids.ts';

export const ARTIFACT_FAMILIES = ['testset', 'workflow', 'environment', 'query'] as const;
export type ArtifactFamily = (typeof ARTIFACT_FAMILIES)[number];
export const isArtifactFamily = (f: string): f is ArtifactFamily => (ARTIFACT_FAMILIES as readonly string[]).includes(f);

export type ArtifactEventType =
  | 'accounts.artifact.created' | 'accounts.artifact.edited'
  | 'accounts.artifact.variant.created' | 'accounts.artifact.variant.edited'
  | 'accounts.artifact.revision.added' | 'accounts.artifact.revision.edited' | 'accounts.artifact.archive.set'
  | 'accounts.testcases.stored';
export type ArtifactEvent = AccountEvent<ArtifactEventType>;

export interface ArtifactVariantState { id: string; slug: string; latestVersion: number }
export interface ArtifactState {
  /** Whether the event's project exists (artifacts go with their project: a late event for a deleted one is refused). */
  projectExists: boolean;
  /** The artifacts the event names by id (any project and family: the rules compare). */
  artifacts: Array<{ id: string; projectId: string; family: string; variants: ArtifactVariantState[] }>;
  /** Of the slugs the event would take, those already taken in its project and family. */
  takenSlugs: { artifact: string[]; variant: string[]; revision: string[] };
  /** The revisions the event names by id, with their variant. */
  revisions: Array<{ id: string; variantId: string }>;
  /** Of the testcase ids the event's revisions name, those stored for their testset. */
  storedTestcases: string[];
}

export const ARTIFACT_REJECTIONS = {
  artifact_exists: 'conflict',
  // The reference's 409 body names the slug: {"detail": {"message", "conflict": {"slug"}}}.
  artifact_slug_exists: { kind: 'conflict', body: 'conflict' },
  artifact_variant_slug_exists: { kind: 'conflict', body: 'conflict' },
  artifact_revision_slug_exists: { kind: 'conflict', body: 'conflict' },
  artifact_not_found: 'not_found',
  /** An event for a project that is gone (appended while it was being deleted). */
  artifact_project_not_found: 'not_found',
  artifact_variant_not_found: 'not_found',
  artifact_revision_not_found: 'not_found',
  artifact_version_conflict: 'conflict',
  artifact_initial_revision_exists: 'conflict',
  /** A commit that kept losing its version to concurrent commits (the command's bounded retry ran out). */
  artifact_commit_contention: 'conflict',
  /** A testset revision naming a testcase not stored for that testset. */
  artifact_testcase_missing: 'invalid',
  /** A request the route refuses before any event (ref rules, data xor delta, id mismatch, reserved slugs). */
  artifact_request_invalid: 'invalid',
  malformed_event: 'unprocessable',
} as const satisfies RejectionPresentations<string>;
export type ArtifactRejection = keyof typeof ARTIFACT_REJECTIONS;

export const VARIANT_NOT_FOUND = 'The variant does not exist in this project.';
export const INITIAL_REVISION_EXISTS = 'An initial revision already exists for this variant.';

/** The reference's wording for every duplicate slug (artifact, variant or revision). */
export const slugExistsMessage = (slug: string): string => `A resource with slug '${slug}' already exists in this project.`;

/** The stream key of a family's artifacts in a project (testsets and queries keep the keys their first models used). */
export const artifactsKey = (projectId: string, family: ArtifactFamily): string => `project:${projectId}:${family === 'query' ? 'queries' : `${family}s`}`;

/** The testcase ids a revision's stored data names (`{testcase_ids: [...]}`); none for other families. */
export function testcaseIdsOf(dataJson: string): string[] {
  if (dataJson === '') return [];
  try {
    const data: unknown = JSON.parse(dataJson);
    const ids = typeof data === 'object' && data !== null ? (data as { testcase_ids?: unknown }).testcase_ids : undefined;
    return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Every id the event carries (checked before any lookup: a malformed id names no row). */
function idsOf(e: ArtifactEvent): string[] {
  switch (e.type) {
    case 'accounts.artifact.created': {
      const c = e.payload;
      return [c.artifact_id, ...(c.variants ?? []).flatMap((v) => [v.variant_id, ...(v.revisions ?? []).map((r) => r.revision_id)])];
    }
    case 'accounts.artifact.edited': return [e.payload.artifact_id];
    case 'accounts.artifact.variant.created': return [e.payload.artifact_id, e.payload.variant.variant_id, ...(e.payload.variant.revisions ?? []).map((r) => r.revision_id)];
    case 'accounts.artifact.variant.edited': return [e.payload.artifact_id, e.payload.variant_id];
    case 'accounts.artifact.revision.added': return [e.payload.artifact_id, e.payload.variant_id, e.payload.revision.revision_id];
    case 'accounts.artifact.revision.edited': return [e.payload.artifact_id, e.payload.variant_id, e.payload.revision_id];
    case 'accounts.artifact.archive.set': return [e.payload.artifact_id, e.payload.target_id];
    case 'accounts.testcases.stored': return [e.payload.testset_id, ...e.payload.testcases.map((t) => t.id)];
  }
}

type Seeds = Array<{ slug: string; revisions?: Array<{ slug: string; version: number; data_json: string }> }>;

export const artifactRules = rules({
  eventTypes: [
    'accounts.artifact.created', 'accounts.artifact.edited', 'accounts.artifact.variant.created', 'accounts.artifact.variant.edited',
    'accounts.artifact.revision.added', 'accounts.artifact.revision.edited', 'accounts.artifact.archive.set', 'accounts.testcases.stored',
  ],
  rejections: ARTIFACT_REJECTIONS,

  decide(e: ArtifactEvent, s: ArtifactState): Decision<ArtifactRejection> {
    if (!isUuid(e.projectId)) return reject('malformed_event', `${e.type} needs the project id in its envelope`);
    if (!idsOf(e).every(isUuid)) return reject('malformed_event', `${e.type} carries an id that is not a UUID`);
    if (!s.projectExists) return reject('artifact_project_not_found', `Project not found: ${e.projectId}.`);
    if (e.type === 'accounts.testcases.stored') {
      // Rows are stored before the testset that names them is created; an existing testset must be this project's.
      const t = s.artifacts.find((a) => sameId(a.id, e.payload.testset_id));
      return t && (!sameId(t.projectId, e.projectId) || t.family !== 'testset') ? reject('artifact_not_found', 'Testset not found.') : accepted;
    }
    const family = e.payload.family;
    if (!isArtifactFamily(family)) return reject('malformed_event', `unknown artifact family '${family}'`);
    const artifact = s.artifacts.find((a) => sameId(a.id, e.payload.artifact_id));
    const mine = artifact && sameId(artifact.projectId, e.projectId) && artifact.family === family ? artifact : undefined;
    const variantOf = (id: string): ArtifactVariantState | undefined => mine?.variants.find((v) => sameId(v.id, id));
    switch (e.type) {
      case 'accounts.artifact.created': {
        if (artifact) return reject('artifact_exists', `Artifact '${e.payload.artifact_id}' already exists.`);
        if (s.takenSlugs.artifact.includes(e.payload.slug)) return reject('artifact_slug_exists', slugExistsMessage(e.payload.slug), { slug: e.payload.slug });
        return decideSeeds(family, e.payload.variants ?? [], s);
      }
      case 'accounts.artifact.edited':
        return mine ? accepted : reject('artifact_not_found', 'Artifact not found.');
      case 'accounts.artifact.variant.created': {
        if (!mine) return reject('artifact_not_found', 'Artifact not found.');
        if (mine.variants.some((v) => sameId(v.id, e.payload.variant.variant_id))) return reject('artifact_exists', 'The variant already exists.');
        return decideSeeds(family, [e.payload.variant], s);
      }
      case 'accounts.artifact.variant.edited':
        return variantOf(e.payload.variant_id) ? accepted : reject('artifact_variant_not_found', VARIANT_NOT_FOUND);
      case 'accounts.artifact.revision.added': {
        const v = variantOf(e.payload.variant_id);
        if (!v) return reject('artifact_variant_not_found', VARIANT_NOT_FOUND);
        const r = e.payload.revision;
        if (r.version === 0 && v.latestVersion >= 0) return reject('artifact_initial_revision_exists', INITIAL_REVISION_EXISTS);
        if (r.version !== v.latestVersion + 1) {
          return reject('artifact_version_conflict', `Revision conflict: version ${r.version} claimed, but the variant's next version is ${v.latestVersion + 1}.`,
            { current_version: String(v.latestVersion) });
        }
        if (s.takenSlugs.revision.includes(r.slug)) return reject('artifact_revision_slug_exists', slugExistsMessage(r.slug), { slug: r.slug });
        return decideTestcases(family, [r.data_json], s);
      }
      case 'accounts.artifact.revision.edited': {
        const p = e.payload;
        return variantOf(p.variant_id) && revisionOf(s, p.revision_id, p.variant_id) ? accepted : reject('artifact_revision_not_found', 'The revision does not exist in this project.');
      }
      case 'accounts.artifact.archive.set': {
        const p = e.payload;
        if (p.target === 'artifact') return mine && sameId(p.artifact_id, p.target_id) ? accepted : reject('artifact_not_found', 'Artifact not found.');
        if (p.target === 'variant') return variantOf(p.target_id) ? accepted : reject('artifact_variant_not_found', VARIANT_NOT_FOUND);
        if (p.target === 'revision') {
          const r = s.revisions.find((x) => sameId(x.id, p.target_id));
          return r && variantOf(r.variantId) ? accepted : reject('artifact_revision_not_found', 'The revision does not exist in this project.');
        }
        return reject('malformed_event', `archive target '${p.target}' is neither "artifact", "variant" nor "revision"`);
      }
    }
  },
});

const revisionOf = (s: ArtifactState, id: string, variantId: string): boolean => s.revisions.some((r) => sameId(r.id, id) && sameId(r.variantId, variantId));

/** New variants with their first revisions: free, distinct slugs; versions 0, 1, … in order; stored testcases. */
function decideSeeds(family: ArtifactFamily, seeds: Seeds, s: ArtifactState): Decision<ArtifactRejection> {
  const variantSlugs = seeds.map((v) => v.slug);
  for (const [i, slug] of variantSlugs.entries()) {
    if (s.takenSlugs.variant.includes(slug) || variantSlugs.indexOf(slug) !== i) return reject('artifact_variant_slug_exists', slugExistsMessage(slug), { slug });
  }
  const revisions = seeds.flatMap((v) => v.revisions ?? []);
  const revisionSlugs = revisions.map((r) => r.slug);
  for (const [i, slug] of revisionSlugs.entries()) {
    if (s.takenSlugs.revision.includes(slug) || revisionSlugs.indexOf(slug) !== i) return reject('artifact_revision_slug_exists', slugExistsMessage(slug), { slug });
  }
  for (const v of seeds) {
    if ((v.revisions ?? []).some((r, i) => r.version !== i)) return reject('malformed_event', 'a new variant\'s revisions are numbered 0, 1, … in order');
  }
  return decideTestcases(family, revisions.map((r) => r.data_json), s);
}

/** A testset revision names only testcases stored for it (other families' data holds no testcase ids). */
function decideTestcases(family: ArtifactFamily, dataJsons: string[], s: ArtifactState): Decision<ArtifactRejection> {
  if (family !== 'testset') return accepted;
  const missing = dataJsons.flatMap(testcaseIdsOf).find((id) => !s.storedTestcases.some((x) => sameId(x, id)));
  return missing === undefined ? accepted : reject('artifact_testcase_missing', `Testcase '${missing}' is not stored for this testset.`);
}
