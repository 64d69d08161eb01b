// Saved queries (reference compat §1): git-style artifacts ("queries"), their variants, and each
// variant's revisions numbered 0, 1, … . Every saved-query event of a project shares a partition
// (key `project:<id>:queries`), so slugs and version numbers are decided in log order: of two
// commits claiming the same version of a variant, the later one is refused, on the command's early
// check and identically on every replay.
//
// `accounts.query.created` / `accounts.query.revision.committed` are the first form of this model
// (one default variant, revisions numbered from 1). Logs holding them still replay: they are
// decided and evolved as an artifact + one variant whose slug is its id in hex (variant slugs are
// now unique per project, and every old variant was called "default"), revisions renumbered from 0.
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, reject, type Decision, type Rejection } from '../../decision.ts';
import { isUuid, sameId } from '../ids.ts';
import type { RejectionPresentations } from '../../presentation.ts';

export type SavedQueryEventType =
  | 'accounts.query.created' | 'accounts.query.revision.committed'
  | 'accounts.query.artifact.created' | 'accounts.query.artifact.edited'
  | 'accounts.query.variant.created' | 'accounts.query.variant.edited'
  | 'accounts.query.revision.added' | 'accounts.query.archive.set' | 'accounts.query.revision.edited';
export type SavedQueryEvent = AccountEvent<SavedQueryEventType>;

export interface SavedQueryVariant {
  id: string;
  slug: string;
  /** The version of the variant's latest revision, -1 while it has none: a commit claims this + 1. */
  latestVersion: number;
}

export interface SavedQuery { id: string; projectId: string; slug: string; variants: SavedQueryVariant[] }

/** A slug in use in a project (artifact, variant and revision slugs are each unique per project). */
export interface ProjectSlug { projectId: string; slug: string }

/** A revision an event names (edits and archival address single revisions). */
export interface SavedQueryRevisionRef { id: string; variantId: string }

/**
 * The saved queries an event's decision looks at: the query it names by id (in any project: ids
 * are unique across projects) with its variants, the project's slugs it would take, and the
 * revisions it names by id (absent = none loaded).
 */
export interface SavedQueryState {
  queries: SavedQuery[]; querySlugs: ProjectSlug[]; variantSlugs: ProjectSlug[]; revisionSlugs: ProjectSlug[];
  revisions?: SavedQueryRevisionRef[];
}

export const SAVED_QUERY_REJECTIONS = {
  query_exists: 'conflict',
  // The reference's 409 body names the slug: {"detail": {"message", "conflict": {"slug"}}}.
  query_slug_exists: { kind: 'conflict', body: 'conflict' },
  query_variant_slug_exists: { kind: 'conflict', body: 'conflict' },
  query_revision_slug_exists: { kind: 'conflict', body: 'conflict' },
  query_not_found: 'not_found',
  query_variant_not_found: 'not_found',
  query_revision_not_found: 'not_found',
  query_version_conflict: 'conflict',
  /** A first revision (version 0) for a variant that has one already. */
  query_initial_revision_exists: 'conflict',
  /** A commit that kept losing its version to concurrent commits (the command's bounded retry ran out). */
  query_commit_contention: 'conflict',
  /** The common code (registry.ts COMMON_REJECTIONS), listed so that `decide` may answer it. */
  malformed_event: 'unprocessable',
} as const satisfies RejectionPresentations<string>;
export type SavedQueryRejection = keyof typeof SAVED_QUERY_REJECTIONS;

export const queryNotFound = (): Rejection<'query_not_found'> => reject('query_not_found', 'Query not found.');
export const queryVariantNotFound = (): Rejection<'query_variant_not_found'> => reject('query_variant_not_found', 'The variant does not exist in this project.');

export const INITIAL_REVISION_EXISTS = 'An initial revision already exists for this variant.';

/** The reference's wording for every duplicate slug (artifact, variant or revision). */
export const slugExistsMessage = (slug: string): string => `A resource with slug '${slug}' already exists in this project.`;

/** The slug a variant of the first model gets (they were all "default"): its id in hex. */
export const legacyVariantSlug = (variantId: string): string => variantId.replace(/-/g, '').toLowerCase();

const queryIn = (s: SavedQueryState, projectId: string, id: string): SavedQuery | undefined =>
  s.queries.find((q) => sameId(q.id, id) && sameId(q.projectId, projectId));
const variantIn = (s: SavedQueryState, projectId: string, queryId: string, variantId: string): SavedQueryVariant | undefined =>
  queryIn(s, projectId, queryId)?.variants.find((v) => sameId(v.id, variantId));
/** The revision, in the variant the event names (which must be the query's). */
const revisionIn = (s: SavedQueryState, projectId: string, queryId: string, variantId: string, revisionId: string): boolean =>
  variantIn(s, projectId, queryId, variantId) !== undefined && (s.revisions ?? []).some((r) => sameId(r.id, revisionId) && sameId(r.variantId, variantId));
export const queryRevisionNotFound = (): Rejection<'query_revision_not_found'> => reject('query_revision_not_found', 'The revision does not exist in this project.');
const taken = (slugs: ProjectSlug[], projectId: string, slug: string): boolean => slugs.some((x) => sameId(x.projectId, projectId) && x.slug === slug);

const malformed = (message: string): Decision<SavedQueryRejection> => reject('malformed_event', message);
const slugExists = (code: 'query_slug_exists' | 'query_variant_slug_exists' | 'query_revision_slug_exists', slug: string): Decision<SavedQueryRejection> =>
  reject(code, slugExistsMessage(slug), { slug });

/** A revision claiming `version` of the variant: it must be the next one (decided in log order). */
function decideRevision(s: SavedQueryState, projectId: string, queryId: string, variantId: string, version: number, slug: string): Decision<SavedQueryRejection> {
  const variant = variantIn(s, projectId, queryId, variantId);
  if (!variant) return reject('query_variant_not_found', 'The variant does not exist in this project.');
  if (version === 0 && variant.latestVersion >= 0) return reject('query_initial_revision_exists', INITIAL_REVISION_EXISTS);
  if (version !== variant.latestVersion + 1) {
    return reject('query_version_conflict', `Query revision conflict: version ${version} claimed, but the variant's next version is ${variant.latestVersion + 1}.`,
      { current_version: String(variant.latestVersion) });
  }
  if (taken(s.revisionSlugs, projectId, slug)) return slugExists('query_revision_slug_exists', slug);
  return accepted;
}

/** The ids every event carries (checked before any lookup: a malformed id names no row). */
function idsOf(e: SavedQueryEvent): string[] {
  switch (e.type) {
    case 'accounts.query.created': return [e.payload.query_id, e.payload.variant_id, e.payload.revision.id];
    case 'accounts.query.revision.committed': return [e.payload.query_id, e.payload.variant_id, e.payload.revision.id];
    case 'accounts.query.artifact.created': case 'accounts.query.artifact.edited': return [e.payload.query_id];
    case 'accounts.query.variant.created': return [e.payload.query_id, e.payload.variant_id, ...(e.payload.revisions ?? []).map((r) => r.revision_id)];
    case 'accounts.query.variant.edited': return [e.payload.query_id, e.payload.variant_id];
    case 'accounts.query.revision.added': case 'accounts.query.revision.edited': return [e.payload.query_id, e.payload.variant_id, e.payload.revision_id];
    case 'accounts.query.archive.set': return [e.payload.query_id, e.payload.target_id];
  }
}

export const savedQueryRules = rules({
  eventTypes: [
    'accounts.query.created', 'accounts.query.revision.committed',
    'accounts.query.artifact.created', 'accounts.query.artifact.edited', 'accounts.query.variant.created', 'accounts.query.variant.edited',
    'accounts.query.revision.added', 'accounts.query.archive.set', 'accounts.query.revision.edited',
  ],
  rejections: SAVED_QUERY_REJECTIONS,

  decide(e: SavedQueryEvent, s: SavedQueryState): Decision<SavedQueryRejection> {
    if (!isUuid(e.projectId)) return malformed(`${e.type} needs the project id in its envelope`);
    if (!idsOf(e).every(isUuid)) return malformed(`${e.type} carries an id that is not a UUID`);
    const project = e.projectId;
    switch (e.type) {
      case 'accounts.query.created': {
        const c = e.payload;
        if (s.queries.some((q) => sameId(q.id, c.query_id))) return reject('query_exists', `Query '${c.query_id}' already exists.`);
        if (taken(s.querySlugs, project, c.slug)) return slugExists('query_slug_exists', c.slug);
        if (taken(s.revisionSlugs, project, c.revision.slug)) return slugExists('query_revision_slug_exists', c.revision.slug);
        if (c.revision.version !== 1) return malformed(`the first revision of a query has version 1, not ${c.revision.version}`);
        return accepted;
      }
      case 'accounts.query.revision.committed': {
        // The first model numbered from 1: its version n is the variant's revision n - 1.
        const p = e.payload;
        return decideRevision(s, project, p.query_id, p.variant_id, p.revision.version - 1, p.revision.slug);
      }
      case 'accounts.query.artifact.created': {
        const c = e.payload;
        if (s.queries.some((q) => sameId(q.id, c.query_id))) return reject('query_exists', `Query '${c.query_id}' already exists.`);
        if (taken(s.querySlugs, project, c.slug)) return slugExists('query_slug_exists', c.slug);
        if (c.folder_id !== '' && !isUuid(c.folder_id)) return malformed('folder_id is not a UUID');
        return accepted;
      }
      case 'accounts.query.artifact.edited':
        return queryIn(s, project, e.payload.query_id) ? accepted : queryNotFound();
      case 'accounts.query.variant.created': {
        const c = e.payload;
        const q = queryIn(s, project, c.query_id);
        if (!q) return queryNotFound();
        if (q.variants.some((v) => sameId(v.id, c.variant_id))) return reject('query_exists', `Query variant '${c.variant_id}' already exists.`);
        if (taken(s.variantSlugs, project, c.slug)) return slugExists('query_variant_slug_exists', c.slug);
        // A fork starts with copies of its source's revisions, each with a new project-unique slug.
        const copies = c.revisions ?? [];
        for (const [i, r] of copies.entries()) {
          if (taken(s.revisionSlugs, project, r.slug) || copies.findIndex((x) => x.slug === r.slug) !== i) return slugExists('query_revision_slug_exists', r.slug);
        }
        return accepted;
      }
      case 'accounts.query.variant.edited':
        return variantIn(s, project, e.payload.query_id, e.payload.variant_id) ? accepted : queryVariantNotFound();
      case 'accounts.query.revision.added': {
        const p = e.payload;
        return decideRevision(s, project, p.query_id, p.variant_id, p.version, p.slug);
      }
      case 'accounts.query.archive.set': {
        const p = e.payload;
        if (p.target === 'query') return sameId(p.query_id, p.target_id) && queryIn(s, project, p.query_id) ? accepted : queryNotFound();
        if (p.target === 'variant') return variantIn(s, project, p.query_id, p.target_id) ? accepted : queryVariantNotFound();
        if (p.target === 'revision') {
          // A revision target names its variant in query_id's query: the revision lookup needs both.
          const r = (s.revisions ?? []).find((x) => sameId(x.id, p.target_id));
          return r && revisionIn(s, project, p.query_id, r.variantId, p.target_id) ? accepted : queryRevisionNotFound();
        }
        return malformed(`archive target '${p.target}' is neither "query", "variant" nor "revision"`);
      }
      case 'accounts.query.revision.edited': {
        const p = e.payload;
        return revisionIn(s, project, p.query_id, p.variant_id, p.revision_id) ? accepted : queryRevisionNotFound();
      }
    }
  },
});

// The stream key: every event of this aggregate goes to one partition of the accounts topic, in order.
/** A project's saved queries (slugs unique per project, each variant's version order). */
export const savedQueriesKey = (projectId: string): string => `project:${projectId}:queries`;
