// Applications and testsets of the first evaluation model (reference compat §4.2: what human
// evaluations named before the artifact model) are artifacts too. Old logs still hold their events
// (`accounts.application.created|variant_created|revision_committed`, `accounts.testset.created`;
// nothing writes them any more): each is translated into the artifact event it means and decided,
// loaded and projected by the artifact aggregate, into the artifact tables. Migration 0024 moved the
// rows those events had built, by the same rules (a test compares the two).
//
// What a translation derives is a function of the event alone, so a replay builds the same rows in
// any order of partitions:
// - every slug becomes `<slug>_<id in hex>` (a revision without one: the id in hex): the first
//   model had slugs unique per application (variants) or not at all (revisions), and its slugs must
//   never take one a current artifact holds. Its own rules still decide its events (an
//   application's or testset's slug unique in its project, a variant's in its application, a
//   variant id unique, rows stored under fresh ids), on the slug before the suffix, so an event it
//   refused is refused again on a replay, with its code;
// - an application is a workflow with `is_application` set (its flags kept beside it); its first
//   variant is named after it and holds the placeholder revision 0 and revision 1 with its data;
// - a testset gets its variant (the stored `variant_id`), a placeholder revision 0 whose id is
//   `md5(<revision_id>:v0)` and revision 1 (the stored `revision_id`) naming its rows in order; rows
//   keep their ids (UUIDv7, not content hashes) and are stored by the same event.
import { createHash } from 'node:crypto';
import { envelopeOf as envelope, type AccountEvent } from '../../account-event.ts';
import { aggregate, rules } from '../../aggregate.ts';
import { accepted, reject, type Decision } from '../../decision.ts';
import type { CommonRejection } from '../../common-rejections.ts';
import type { SqlStatement } from '../../statement.ts';
import type { ArtifactHeader } from '@llm/events';
import { asUuid, parseUuid, type Queryable } from '../../queryable.ts';
import { idHex } from '../ids.ts';
import { artifactRules, type ArtifactEvent, type ArtifactRejection, type ArtifactState } from './rules.ts';
import { loadArtifactState } from './reads.ts';
import { projectArtifact } from './projection.ts';

export type LegacyApplicationEventType = 'accounts.application.created' | 'accounts.application.variant_created' | 'accounts.application.revision_committed';
export type LegacyApplicationEvent = AccountEvent<LegacyApplicationEventType>;
export type LegacyTestsetEvent = AccountEvent<'accounts.testset.created'>;

/** The first model's codes, kept for what its events are refused with. */
export const APPLICATION_REJECTIONS = {
  application_project_not_found: 'not_found',
  application_exists: 'conflict',
  application_slug_taken: 'conflict',
  application_not_found: 'not_found',
  application_variant_exists: 'conflict',
  application_variant_slug_taken: 'conflict',
  application_variant_not_found: 'not_found',
  application_revision_changed: 'conflict',
} as const;
export type ApplicationRejection = keyof typeof APPLICATION_REJECTIONS;
export const TESTSET_REJECTIONS = {
  testset_project_not_found: 'not_found',
  testset_exists: 'conflict',
  testset_slug_taken: 'conflict',
} as const;
export type TestsetRejection = keyof typeof TESTSET_REJECTIONS;

/** A first-model application, variant or testset slug as an artifact slug (SQL: `slug || '_' || replace(id::text, '-', '')`). */
export const legacySlug = (slug: string, id: string): string => `${slug}_${idHex(id)}`;
/** A first-model revision slug (optional there): `<slug>_<id hex>`, or the id in hex for none. */
const legacyRevisionSlug = (slug: string, id: string): string => (slug === '' ? idHex(id) : legacySlug(slug, id));
/** The placeholder revision 0 of a legacy testset (SQL: `md5(revision_id::text || ':v0')::uuid`). */
export function legacyTestsetV0(revisionId: string): string {
  return parseUuid(createHash('md5').update(`${revisionId.toLowerCase()}:v0`).digest('hex'))!;
}

const NO_HEADER: ArtifactHeader = { name: '', description: '', tags_json: '', meta_json: '', flags_json: '' };

/** The artifact event a legacy application event means (family `workflow`). */
export function applicationAsArtifact(e: LegacyApplicationEvent): ArtifactEvent {
  const family = 'workflow';
  switch (e.type) {
    case 'accounts.application.created': {
      const p = e.payload;
      const a = p.application;
      return {
        ...envelope(e, a.project_id), type: 'accounts.artifact.created',
        payload: {
          family, artifact_id: a.application_id, slug: legacySlug(a.slug, a.application_id),
          header: { name: a.name, description: a.description, tags_json: a.tags_json, meta_json: a.meta_json, flags_json: a.flags_json },
          variants: [{
            variant_id: p.variant_id, slug: legacySlug(p.variant_slug, p.variant_id), header: { ...NO_HEADER, name: a.name || a.slug, flags_json: a.flags_json },
            revisions: [
              { revision_id: p.revision0_id, slug: idHex(p.revision0_id), version: 0, header: NO_HEADER, data_json: '', message: '' },
              { revision_id: p.revision_id, slug: idHex(p.revision_id), version: 1, header: NO_HEADER, data_json: a.data_json, message: '' },
            ],
          }],
        },
      };
    }
    case 'accounts.application.variant_created': {
      const p = e.payload;
      return {
        ...envelope(e, p.project_id), type: 'accounts.artifact.variant.created',
        payload: { family, artifact_id: p.application_id, variant: { variant_id: p.variant_id, slug: legacySlug(p.slug, p.variant_id), header: { ...NO_HEADER, name: p.name, flags_json: p.flags_json, tags_json: p.tags_json } } },
      };
    }
    case 'accounts.application.revision_committed': {
      const p = e.payload;
      return {
        ...envelope(e, p.project_id), type: 'accounts.artifact.revision.added',
        payload: {
          family, artifact_id: p.application_id, variant_id: p.variant_id,
          revision: { revision_id: p.revision_id, slug: legacyRevisionSlug(p.slug, p.revision_id), version: p.version, header: NO_HEADER, data_json: p.data_json, message: p.message },
        },
      };
    }
  }
}

/** The two artifact events a legacy testset means: its rows stored, then the testset naming them. */
export function testsetAsArtifact(e: LegacyTestsetEvent): { rows: AccountEvent<'accounts.testcases.stored'>; testset: AccountEvent<'accounts.artifact.created'> } {
  const p = e.payload;
  const env = envelope(e, p.project_id);
  const ids = p.testcases.map((t) => t.testcase_id.toLowerCase());
  const v0 = legacyTestsetV0(p.revision_id);
  return {
    rows: {
      ...env, type: 'accounts.testcases.stored',
      payload: { testset_id: p.testset_id, testcases: p.testcases.map((t) => ({ id: t.testcase_id, data_json: t.data_json, flags_json: '', tags_json: '', meta_json: '' })) },
    },
    testset: {
      ...env, type: 'accounts.artifact.created',
      payload: {
        family: 'testset', artifact_id: p.testset_id, slug: legacySlug(p.slug, p.testset_id),
        header: { ...NO_HEADER, name: p.name, description: p.description, tags_json: p.tags_json, meta_json: p.meta_json },
        variants: [{
          variant_id: p.variant_id, slug: idHex(p.variant_id), header: { ...NO_HEADER, name: p.name },
          revisions: [
            { revision_id: v0, slug: idHex(v0), version: 0, header: NO_HEADER, data_json: '', message: '' },
            { revision_id: p.revision_id, slug: idHex(p.revision_id), version: 1, header: NO_HEADER, data_json: JSON.stringify({ testcase_ids: ids }), message: '' },
          ],
        }],
      },
    },
  };
}

/** An artifact rejection in the first model's words; what it could not get is a malformed event. */
function applicationDecision(e: LegacyApplicationEvent, d: Decision<ArtifactRejection | CommonRejection>): Decision<ApplicationRejection | CommonRejection> {
  if (d.status === 'accepted') return d;
  const variantEvent = e.type === 'accounts.application.variant_created';
  switch (d.code) {
    // A later event of an application whose project is gone found no application there.
    case 'artifact_project_not_found': return e.type === 'accounts.application.created' ? reject('application_project_not_found', 'Project not found') : reject('application_not_found', 'Application not found');
    case 'artifact_exists': return variantEvent ? reject('application_variant_exists', 'Application variant already exists') : reject('application_exists', 'Application already exists');
    case 'artifact_slug_exists': return reject('application_slug_taken', d.message, d.details);
    case 'artifact_variant_slug_exists': return reject('application_variant_slug_taken', d.message, d.details);
    case 'artifact_not_found': return reject('application_not_found', 'Application not found');
    case 'artifact_variant_not_found': return reject('application_variant_not_found', 'Application variant not found');
    case 'artifact_version_conflict': case 'artifact_initial_revision_exists': return reject('application_revision_changed', d.message, d.details);
    // Slugs carry their id and testcases concern no application: any other code means a malformed event.
    default: return reject('malformed_event', d.message, d.details);
  }
}

/**
 * The artifact state, whether the first model's slug (before its suffix) is already held where it
 * had to be unique, and whether an id the event adds under the first model's keys is taken (a new
 * variant's id by any variant; a testset row's by any row, or twice in the event).
 */
export interface LegacyState extends ArtifactState { legacySlugTaken: boolean; idsTaken: boolean }

/**
 * Whether another row of the first model holds `slug` (stored as `<slug>_<its id in hex>`) among
 * the project's artifacts of the family (`artifacts`) or among the artifact's variants.
 */
async function legacySlugTaken(q: Queryable, at: { table: 'artifacts' | 'artifact_variants'; projectId: string; family: string; artifactId: string; ownId: string; slug: string }): Promise<boolean> {
  if (asUuid(at.projectId) === null || asUuid(at.ownId) === null || asUuid(at.artifactId) === null) return false;
  const [where, scope] = at.table === 'artifacts' ? ['project_id = $1::uuid', at.projectId] : ['artifact_id = $1::uuid', at.artifactId];
  const r = await q.query(
    `SELECT 1 FROM ${at.table} WHERE ${where} AND family = $2 AND id <> $3::uuid AND slug = $4 || '_' || replace(id::text, '-', '') LIMIT 1`,
    [scope, at.family, at.ownId, at.slug],
  );
  return r.rows.length > 0;
}

async function loadLegacyApplication(q: Queryable, e: LegacyApplicationEvent): Promise<LegacyState> {
  const s = await loadArtifactState(q, applicationAsArtifact(e));
  if (e.type === 'accounts.application.revision_committed') return { ...s, legacySlugTaken: false, idsTaken: false };
  if (e.type === 'accounts.application.created') {
    const a = e.payload.application;
    return { ...s, idsTaken: false, legacySlugTaken: await legacySlugTaken(q, { table: 'artifacts', projectId: a.project_id, family: 'workflow', artifactId: a.application_id, ownId: a.application_id, slug: a.slug }) };
  }
  const p = e.payload;
  const variantId = asUuid(p.variant_id);
  const idsTaken = variantId !== null && (await q.query('SELECT 1 FROM artifact_variants WHERE id = $1::uuid', [variantId])).rows.length > 0;
  return { ...s, idsTaken, legacySlugTaken: await legacySlugTaken(q, { table: 'artifact_variants', projectId: p.project_id, family: 'workflow', artifactId: p.application_id, ownId: p.variant_id, slug: p.slug }) };
}

export const legacyApplicationRules = rules({
  eventTypes: ['accounts.application.created', 'accounts.application.variant_created', 'accounts.application.revision_committed'],
  rejections: APPLICATION_REJECTIONS,
  decide(e: LegacyApplicationEvent, s: LegacyState): Decision<ApplicationRejection | CommonRejection> {
    const d = applicationDecision(e, artifactRules.decide(applicationAsArtifact(e), s));
    if (d.status === 'rejected') return d;
    if (s.idsTaken) return reject('application_variant_exists', 'Application variant already exists');
    if (!s.legacySlugTaken) return d;
    return e.type === 'accounts.application.variant_created'
      ? reject('application_variant_slug_taken', 'A variant with this slug already exists in the application.')
      : reject('application_slug_taken', 'An application with this slug already exists in the project.');
  },
});

/** The artifact's statements; an application's artifact is flagged `is_application` over the flags it had (as 0024 does). */
function projectLegacyApplication(e: LegacyApplicationEvent, s: LegacyState): SqlStatement[] {
  return [
    ...projectArtifact(applicationAsArtifact(e), s),
    ...(e.type !== 'accounts.application.created' ? [] : [{
      text: `UPDATE artifacts SET flags = CASE WHEN jsonb_typeof(flags) = 'object' THEN flags ELSE '{}'::jsonb END || '{"is_application": true}'::jsonb WHERE id = $1`,
      values: [e.payload.application.application_id],
    }]),
  ];
}

export const legacyApplication = aggregate(legacyApplicationRules, { load: loadLegacyApplication, project: projectLegacyApplication });

export const legacyTestsetRules = rules({
  eventTypes: ['accounts.testset.created'],
  rejections: TESTSET_REJECTIONS,
  decide(e: LegacyTestsetEvent, s: LegacyState): Decision<TestsetRejection | CommonRejection> {
    const { rows, testset } = testsetAsArtifact(e);
    const stored = artifactRules.decide(rows, s);
    // The rows the testset names are stored by this same event.
    const d = stored.status === 'accepted' ? artifactRules.decide(testset, { ...s, storedTestcases: rows.payload.testcases.map((t) => t.id) }) : stored;
    if (d.status === 'accepted') {
      if (s.legacySlugTaken) return reject('testset_slug_taken', 'A testset with this slug already exists in the project.');
      // The first model stored rows under their ids as keys: a taken one failed the event.
      return s.idsTaken ? reject('unstorable', 'A testcase id of this testset is already stored.') : accepted;
    }
    switch (d.code) {
      case 'artifact_project_not_found': return reject('testset_project_not_found', 'Project not found');
      case 'artifact_exists': case 'artifact_not_found': return reject('testset_exists', 'Testset already exists');
      case 'artifact_slug_exists': return reject('testset_slug_taken', d.message, d.details);
      default: return reject('malformed_event', d.message, d.details);
    }
  },
});

export const legacyTestset = aggregate(legacyTestsetRules, {
  load: async (q: Queryable, e: LegacyTestsetEvent): Promise<LegacyState> => {
    const p = e.payload;
    const s = await loadArtifactState(q, testsetAsArtifact(e).testset);
    const ids = p.testcases.map((t) => asUuid(t.testcase_id)).filter((x) => x !== null);
    const idsTaken = new Set(ids).size < ids.length
      || (ids.length > 0 && (await q.query('SELECT 1 FROM artifact_testcases WHERE id = ANY($1::uuid[]) LIMIT 1', [ids])).rows.length > 0);
    return { ...s, idsTaken, legacySlugTaken: await legacySlugTaken(q, { table: 'artifacts', projectId: p.project_id, family: 'testset', artifactId: p.testset_id, ownId: p.testset_id, slug: p.slug }) };
  },
  project: (e: LegacyTestsetEvent, s: LegacyState) => {
    const { rows, testset } = testsetAsArtifact(e);
    return [...projectArtifact(rows, s), ...projectArtifact(testset, s)];
  },
});
