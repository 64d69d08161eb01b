// Saved queries are the `query` family of the artifact model (reference compat §1). Their events
// keep their own types on the log (`accounts.query.*`: the routes write them, and old logs hold
// three generations of them), but nothing about them is decided or stored twice: each is
// translated into the artifact event it means and decided, loaded and projected by the artifact
// aggregate, into the artifact tables. Only the rejection codes stay the query family's own
// (`query_*`, which the saved-query routes and their clients know).
//
// The first model (`accounts.query.created` / `accounts.query.revision.committed`: one default
// variant, revisions numbered from 1, content in four fields) translates into an artifact with one
// variant whose slug is its id in hex (variant slugs are unique per project, and every old variant
// was called "default"), revisions renumbered from 0, the content folded into `data` the way
// migration 0013 folded it.
import { envelopeOf, type AccountEvent } from '../../account-event.ts';
import { aggregate, rules } from '../../aggregate.ts';
import { reject, type Decision } from '../../decision.ts';
import type { CommonRejection } from '../../common-rejections.ts';
import type { RejectionPresentations } from '../../presentation.ts';
import type { SqlStatement } from '../../statement.ts';
import type { ArtifactHeader, QueryRevisionInfo } from '@llm/events';
import { idHex, isUuid } from '../ids.ts';
import { ARTIFACT_REJECTIONS, artifactRules, artifactsKey, type ArtifactEvent, type ArtifactFamily, type ArtifactRejection, type ArtifactState } from './rules.ts';
import { loadArtifactState } from './reads.ts';
import { projectArtifact } from './projection.ts';
import type { Queryable } from '../../queryable.ts';

export type SavedQueryEventType =
  | 'accounts.query.created' | 'accounts.query.revision.committed'
  | 'accounts.query.artifact.created' | 'accounts.query.artifact.edited'
  | 'accounts.query.variant.created' | 'accounts.query.variant.edited'
  | 'accounts.query.revision.added' | 'accounts.query.archive.set' | 'accounts.query.revision.edited';
export type SavedQueryEvent = AccountEvent<SavedQueryEventType>;

/**
 * The query family's name for each artifact rejection a query event can get (testcase and request
 * checks never concern a query); each keeps the artifact code's presentation (a taken slug: the
 * reference's 409 body naming it).
 */
const QUERY_CODE = {
  artifact_exists: 'query_exists', artifact_slug_exists: 'query_slug_exists', artifact_variant_slug_exists: 'query_variant_slug_exists',
  artifact_revision_slug_exists: 'query_revision_slug_exists', artifact_not_found: 'query_not_found', artifact_project_not_found: 'query_project_not_found',
  artifact_variant_not_found: 'query_variant_not_found', artifact_revision_not_found: 'query_revision_not_found', artifact_version_conflict: 'query_version_conflict',
  artifact_initial_revision_exists: 'query_initial_revision_exists', artifact_commit_contention: 'query_commit_contention', malformed_event: 'malformed_event',
} as const satisfies Partial<Record<ArtifactRejection, string>>;
type Renamed = keyof typeof QUERY_CODE;

export const SAVED_QUERY_REJECTIONS = Object.fromEntries(
  Object.entries(QUERY_CODE).map(([artifactCode, queryCode]) => [queryCode, ARTIFACT_REJECTIONS[artifactCode as Renamed]]),
) as { [K in Renamed as (typeof QUERY_CODE)[K]]: (typeof ARTIFACT_REJECTIONS)[K] } satisfies RejectionPresentations<string>;
export type SavedQueryRejection = keyof typeof SAVED_QUERY_REJECTIONS;

/** A project's saved queries: one stream key (slugs unique per project, each variant's version order). */
export const savedQueriesKey = (projectId: string): string => artifactsKey(projectId, 'query');

/** The slug a variant of the first model gets (they were all "default"): its id in hex. */
export const legacyVariantSlug = idHex;

const NO_HEADER: ArtifactHeader = { name: '', description: '', tags_json: '', meta_json: '', flags_json: '' };

/**
 * A first-model revision's content as one `data` object, as JSON text built from the stored texts
 * without parsing them (numbers keep their exact digits); the projection then strips its nulls in
 * SQL, so the row is what 0013's `jsonb_strip_nulls(jsonb_build_object(…))` made of the same
 * columns (an invalid text fails the event there, as it failed the old projection).
 */
export function legacyQueryData(r: Pick<QueryRevisionInfo, 'filtering_json' | 'windowing_json' | 'focus' | 'format'>): string {
  const formatting = [r.focus ? `"focus":${JSON.stringify(r.focus)}` : '', r.format ? `"format":${JSON.stringify(r.format)}` : ''].filter((x) => x !== '');
  return `{"filtering":${r.filtering_json || 'null'},"windowing":${r.windowing_json || 'null'}${formatting.length ? `,"formatting":{${formatting.join(',')}}` : ''}}`;
}

const legacyRevision = (r: QueryRevisionInfo) => ({
  revision_id: r.id, slug: r.slug, version: r.version - 1, header: NO_HEADER, data_json: legacyQueryData(r), message: r.message,
});

/** The artifact event a saved-query event means (family `query`), in the same envelope. */
export function toArtifactEvent(e: SavedQueryEvent): ArtifactEvent {
  const env = envelopeOf(e);
  const family = 'query';
  switch (e.type) {
    case 'accounts.query.created': {
      const c = e.payload;
      return {
        ...env, type: 'accounts.artifact.created',
        payload: {
          family, artifact_id: c.query_id, slug: c.slug, header: { ...NO_HEADER, name: c.name, description: c.description },
          variants: [{ variant_id: c.variant_id, slug: legacyVariantSlug(c.variant_id), header: NO_HEADER, revisions: [legacyRevision(c.revision)] }],
        },
      };
    }
    case 'accounts.query.revision.committed': {
      const p = e.payload;
      return { ...env, type: 'accounts.artifact.revision.added', payload: { family, artifact_id: p.query_id, variant_id: p.variant_id, revision: legacyRevision(p.revision) } };
    }
    case 'accounts.query.artifact.created':
      return { ...env, type: 'accounts.artifact.created', payload: { family, artifact_id: e.payload.query_id, slug: e.payload.slug, header: e.payload.header } };
    case 'accounts.query.artifact.edited':
      return { ...env, type: 'accounts.artifact.edited', payload: { family, artifact_id: e.payload.query_id, header: e.payload.header } };
    case 'accounts.query.variant.created': {
      const c = e.payload;
      // A fork's copies are numbered from 0 in the order the event lists them.
      const revisions = (c.revisions ?? []).map((r, version) => ({ ...r, version }));
      return {
        ...env, type: 'accounts.artifact.variant.created',
        payload: { family, artifact_id: c.query_id, variant: { variant_id: c.variant_id, slug: c.slug, header: c.header, ...(revisions.length ? { revisions } : {}) } },
      };
    }
    case 'accounts.query.variant.edited':
      return { ...env, type: 'accounts.artifact.variant.edited', payload: { family, artifact_id: e.payload.query_id, variant_id: e.payload.variant_id, header: e.payload.header } };
    case 'accounts.query.revision.added': {
      const p = e.payload;
      return {
        ...env, type: 'accounts.artifact.revision.added',
        payload: {
          family, artifact_id: p.query_id, variant_id: p.variant_id,
          revision: { revision_id: p.revision_id, slug: p.slug, version: p.version, header: p.header, data_json: p.data_json, message: p.message },
        },
      };
    }
    case 'accounts.query.revision.edited': {
      const p = e.payload;
      return { ...env, type: 'accounts.artifact.revision.edited', payload: { family, artifact_id: p.query_id, variant_id: p.variant_id, revision_id: p.revision_id, header: p.header } };
    }
    case 'accounts.query.archive.set': {
      const p = e.payload;
      return {
        ...env, type: 'accounts.artifact.archive.set',
        payload: { family, artifact_id: p.query_id, target: p.target === 'query' ? 'artifact' : p.target === 'artifact' ? '' : p.target, target_id: p.target_id, archived: p.archived },
      };
    }
  }
}

/**
 * The saved-query event an artifact write of the `query` family is appended as (the inverse of
 * toArtifactEvent for today's generation), so the shared artifact writes serve saved queries too;
 * `folderId` files a created or edited query ('' = none). A query artifact is created without
 * variants (its variants and revisions are events of their own).
 */
export function asSavedQueryEvent(e: Fact<ArtifactEvent>, folderId = ''): Fact<SavedQueryEvent> {
  switch (e.type) {
    case 'accounts.artifact.created':
      if ((e.payload.variants ?? []).length > 0) throw new Error('a saved query is created without variants');
      return { type: 'accounts.query.artifact.created', payload: { query_id: e.payload.artifact_id, slug: e.payload.slug, header: e.payload.header, folder_id: folderId } };
    case 'accounts.artifact.edited':
      return { type: 'accounts.query.artifact.edited', payload: { query_id: e.payload.artifact_id, header: e.payload.header, folder_id: folderId } };
    case 'accounts.artifact.variant.created': {
      const v = e.payload.variant;
      const revisions = (v.revisions ?? []).map((r) => ({ revision_id: r.revision_id, slug: r.slug, header: r.header, data_json: r.data_json, message: r.message }));
      return { type: 'accounts.query.variant.created', payload: { query_id: e.payload.artifact_id, variant_id: v.variant_id, slug: v.slug, header: v.header, ...(revisions.length ? { revisions } : {}) } };
    }
    case 'accounts.artifact.variant.edited':
      return { type: 'accounts.query.variant.edited', payload: { query_id: e.payload.artifact_id, variant_id: e.payload.variant_id, header: e.payload.header } };
    case 'accounts.artifact.revision.added': {
      const r = e.payload.revision;
      return {
        type: 'accounts.query.revision.added',
        payload: { query_id: e.payload.artifact_id, variant_id: e.payload.variant_id, revision_id: r.revision_id, slug: r.slug, version: r.version, header: r.header, data_json: r.data_json, message: r.message },
      };
    }
    case 'accounts.artifact.revision.edited': {
      const p = e.payload;
      return { type: 'accounts.query.revision.edited', payload: { query_id: p.artifact_id, variant_id: p.variant_id, revision_id: p.revision_id, header: p.header } };
    }
    case 'accounts.artifact.archive.set': {
      const p = e.payload;
      return { type: 'accounts.query.archive.set', payload: { query_id: p.artifact_id, target: p.target === 'artifact' ? 'query' : p.target, target_id: p.target_id, archived: p.archived } };
    }
    case 'accounts.testcases.stored':
      throw new Error('a saved query stores no testcases');
  }
}

/** An event's type and payload (what a write declares; the envelope is the command's). */
export type Fact<E> = E extends { type: infer T; payload: infer P } ? { type: T; payload: P } : never;

/** The code a family refuses with where the artifact model says `code` (saved queries keep their `query_*` codes). */
export function familyCode<C extends Renamed>(family: ArtifactFamily, code: C): C | (typeof QUERY_CODE)[C] {
  return family === 'query' ? QUERY_CODE[code] : code;
}

/** The query family's wording where it differs from the artifact's. */
function asQueryDecision(e: SavedQueryEvent, d: Decision<ArtifactRejection | CommonRejection>): Decision<SavedQueryRejection | CommonRejection> {
  if (d.status === 'accepted') return d;
  // Codes a query cannot get (testcases, request checks) would mean a malformed event; common codes pass.
  const code: SavedQueryRejection | CommonRejection = d.code in QUERY_CODE ? QUERY_CODE[d.code as Renamed]
    : d.code in ARTIFACT_REJECTIONS ? 'malformed_event' : (d.code as CommonRejection);
  switch (code) {
    case 'query_not_found': return reject(code, 'Query not found.');
    case 'query_exists': return reject(code, e.type === 'accounts.query.variant.created' ? `Query variant '${e.payload.variant_id}' already exists.` : `Query '${e.payload.query_id}' already exists.`);
    case 'query_version_conflict': return reject(code, `Query ${d.message.charAt(0).toLowerCase()}${d.message.slice(1)}`, d.details);
    default: return reject(code, d.message, d.details);
  }
}

const folderOf = (e: SavedQueryEvent): string | undefined =>
  e.type === 'accounts.query.artifact.created' || e.type === 'accounts.query.artifact.edited' ? e.payload.folder_id : undefined;

export const savedQueryRules = rules({
  eventTypes: [
    'accounts.query.created', 'accounts.query.revision.committed',
    'accounts.query.artifact.created', 'accounts.query.artifact.edited', 'accounts.query.variant.created', 'accounts.query.variant.edited',
    'accounts.query.revision.added', 'accounts.query.archive.set', 'accounts.query.revision.edited',
  ],
  rejections: SAVED_QUERY_REJECTIONS,

  decide(e: SavedQueryEvent, s: ArtifactState): Decision<SavedQueryRejection | CommonRejection> {
    const folder = folderOf(e);
    if (folder !== undefined && folder !== '' && !isUuid(folder)) return reject('malformed_event', 'folder_id is not a UUID');
    if (e.type === 'accounts.query.created' && e.payload.revision.version !== 1) {
      return reject('malformed_event', `the first revision of a query has version 1, not ${e.payload.revision.version}`);
    }
    return asQueryDecision(e, artifactRules.decide(toArtifactEvent(e), s));
  },
});

const loadSavedQueryState = (q: Queryable, e: SavedQueryEvent): Promise<ArtifactState> => loadArtifactState(q, toArtifactEvent(e));

/** The revision a first-model event adds (its `data` folded from the four old fields). */
const legacyRevisionId = (e: SavedQueryEvent): string | undefined =>
  e.type === 'accounts.query.created' || e.type === 'accounts.query.revision.committed' ? e.payload.revision.id : undefined;

/**
 * The artifact's statements, plus the folder a query artifact is filed in (only queries have one),
 * and for a first-model revision its folded data with the nulls stripped (as 0013 folded the rows).
 */
function projectSavedQuery(e: SavedQueryEvent, s: ArtifactState): SqlStatement[] {
  const folder = folderOf(e);
  const legacy = legacyRevisionId(e);
  return [
    ...projectArtifact(toArtifactEvent(e), s),
    ...(folder === undefined ? [] : [{ text: "UPDATE artifacts SET folder_id = NULLIF($2,'')::uuid WHERE id = $1", values: [e.payload.query_id, folder] }]),
    ...(legacy === undefined ? [] : [{ text: "UPDATE artifact_revisions SET data = NULLIF(jsonb_strip_nulls(data), '{}'::jsonb) WHERE id = $1", values: [legacy] }]),
  ];
}

export const savedQuery = aggregate(savedQueryRules, { load: loadSavedQueryState, project: projectSavedQuery });
