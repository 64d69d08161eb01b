// Saved queries (reference §5.5): a query with a default variant whose revisions are numbered 1, 2, …
// Every saved-query event of a project shares a partition (key `project:<id>:queries`), so slugs
// and version numbers are decided in log order: of two commits on the same version, the later one
// is refused, and a replay refuses the same one.
import type { AccountEvent } from '../account-event.ts';
import { aggregate } from '../aggregate.ts';
import { accepted, reject, type Decision, type Rejection } from '../decision.ts';
import { isUuid, sameId } from './ids.ts';

export type SavedQueryEventType = 'accounts.query.created' | 'accounts.query.revision.committed';
export type SavedQueryEvent = AccountEvent<SavedQueryEventType>;

export interface SavedQueryVariant {
  id: string;
  slug: string;
  isDefault: boolean;
  /** The number of the variant's latest revision: the version a commit must follow. */
  latestVersion: number;
}

export interface SavedQuery { id: string; projectId: string; slug: string; variants: SavedQueryVariant[] }

/** A revision slug in use; revision slugs are unique per project. */
export interface RevisionSlug { projectId: string; slug: string }

/**
 * The saved queries an event's decision looks at: the query with its id (in any project: ids are
 * unique across projects), the project's query with its slug, and the project's revision slugs it
 * names.
 */
export interface SavedQueryState { queries: SavedQuery[]; revisionSlugs: RevisionSlug[] }

export const SAVED_QUERY_REJECTIONS = {
  query_exists: 'conflict',
  query_slug_exists: 'conflict',
  query_revision_slug_exists: 'conflict',
  query_not_found: 'not_found',
  query_version_conflict: 'conflict',
  /** The common code (registry.ts COMMON_REJECTIONS), listed so that `decide` may answer it. */
  malformed_event: 'unprocessable',
} as const;
export type SavedQueryRejection = keyof typeof SAVED_QUERY_REJECTIONS;


/** Also the command's answer when the path names no query of the project: no event can name a variant then. */
export const queryNotFound = (): Rejection<'query_not_found'> => reject('query_not_found', 'Query not found.');

/**
 * Optimistic concurrency on a variant: a commit names the version it read (`expected`, 0 = none).
 * Not `checkVersion`: this wording and these details are the API of POST /queries/{id}/revisions
 * (409 with `current_version` only).
 */
function decideQueryVersion(expected: number, current: number): Decision<'query_version_conflict'> {
  if (expected === 0 || expected === current) return accepted;
  return reject('query_version_conflict', `Query revision conflict: expected version ${expected}, but the current version is ${current}.`,
    { current_version: current });
}

const queryWithId = (s: SavedQueryState, id: string): SavedQuery | undefined => s.queries.find((q) => sameId(q.id, id));

/** The variant of this query of this project (undefined when any of the three does not match). */
function variantOf(s: SavedQueryState, projectId: string, queryId: string, variantId: string): SavedQueryVariant | undefined {
  const q = queryWithId(s, queryId);
  return q && sameId(q.projectId, projectId) ? q.variants.find((v) => sameId(v.id, variantId)) : undefined;
}

const querySlugTakenIn = (s: SavedQueryState, projectId: string, slug: string): boolean =>
  s.queries.some((q) => sameId(q.projectId, projectId) && q.slug === slug);
const revisionSlugTaken = (s: SavedQueryState, projectId: string, slug: string): boolean =>
  s.revisionSlugs.some((r) => sameId(r.projectId, projectId) && r.slug === slug);

const malformed = (message: string): Decision<SavedQueryRejection> => reject('malformed_event', message);
const revisionSlugExists = (slug: string): Decision<SavedQueryRejection> =>
  reject('query_revision_slug_exists', `Query revision with slug '${slug}' already exists in this project.`, { slug });

export const savedQuery = aggregate({
  eventTypes: ['accounts.query.created', 'accounts.query.revision.committed'],
  initial: { queries: [], revisionSlugs: [] } as SavedQueryState,
  rejections: SAVED_QUERY_REJECTIONS,

  decide(e: SavedQueryEvent, s: SavedQueryState): Decision<SavedQueryRejection> {
    const p = e.payload;
    // Checked before any lookup: such an event names no row (the reader looks malformed ids up as NULL).
    if (!isUuid(e.projectId)) return malformed(`${e.type} needs the project id in its envelope`);
    if (![p.query_id, p.variant_id, p.revision.id].every(isUuid)) return malformed(`${e.type} carries an id that is not a UUID`);
    switch (e.type) {
      case 'accounts.query.created': {
        const c = e.payload;
        if (queryWithId(s, c.query_id)) return reject('query_exists', `Query '${c.query_id}' already exists.`);
        if (querySlugTakenIn(s, e.projectId, c.slug)) {
          return reject('query_slug_exists', `Query with slug '${c.slug}' already exists in this project.`, { slug: c.slug });
        }
        if (revisionSlugTaken(s, e.projectId, c.revision.slug)) return revisionSlugExists(c.revision.slug);
        if (c.revision.version !== 1) return malformed(`the first revision of a query has version 1, not ${c.revision.version}`);
        return accepted;
      }
      case 'accounts.query.revision.committed': {
        const variant = variantOf(s, e.projectId, p.query_id, p.variant_id);
        if (!variant) return queryNotFound();
        // The command read version `latestVersion` (or the client said which one it saw); a commit
        // landed in between makes this one stale.
        const version = decideQueryVersion(e.expectedVersion, variant.latestVersion);
        if (version.status === 'rejected') return version;
        if (p.revision.version !== variant.latestVersion + 1) {
          return malformed(`revision version ${p.revision.version} does not follow the current version ${variant.latestVersion}`);
        }
        if (revisionSlugTaken(s, e.projectId, p.revision.slug)) return revisionSlugExists(p.revision.slug);
        return accepted;
      }
    }
  },

  evolve(s: SavedQueryState, e: SavedQueryEvent): SavedQueryState {
    const p = e.payload;
    const revisionSlugs = [...s.revisionSlugs, { projectId: e.projectId, slug: p.revision.slug }];
    switch (e.type) {
      case 'accounts.query.created': {
        const c = e.payload;
        const variant: SavedQueryVariant = { id: c.variant_id, slug: c.variant_slug, isDefault: true, latestVersion: c.revision.version };
        return { queries: [...s.queries, { id: c.query_id, projectId: e.projectId, slug: c.slug, variants: [variant] }], revisionSlugs };
      }
      case 'accounts.query.revision.committed': {
        const bump = (v: SavedQueryVariant): SavedQueryVariant => (sameId(v.id, p.variant_id) ? { ...v, latestVersion: p.revision.version } : v);
        return { queries: s.queries.map((q) => (sameId(q.id, p.query_id) ? { ...q, variants: q.variants.map(bump) } : q)), revisionSlugs };
      }
    }
  },
});
