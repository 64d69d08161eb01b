// Given/when/then of the saved-query events, decided as artifacts of the query family: artifact, variant and revision slugs unique per
// project, revisions numbered 0, 1, … per variant in log order (a commit claiming a taken version
// is refused), and events of the first model still deciding the same way on replay.
import { describe, expect, it } from 'vitest';
import type { QueryHeader, QueryRevisionInfo } from '@llm/events';
import { legacyVariantSlug, savedQuery, type ArtifactState, type ArtifactVariantState } from '../src/index.ts';
import { decideOn, ev } from './support/given.ts';

const PROJECT = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000009';
const QUERY = '00000000-0000-4000-8000-000000000002';
const VARIANT = '00000000-0000-4000-8000-000000000003';
const VARIANT_B = '00000000-0000-4000-8000-000000000013';
const rid = (n: number) => `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`;
const header: QueryHeader = { name: '', description: '', tags_json: '', meta_json: '', flags_json: '' };
const at = { projectId: PROJECT, actorId: 'u1' };

const artifact = (slug = 'errors', project = PROJECT) => ev('accounts.query.artifact.created', { query_id: QUERY, slug, header, folder_id: '' }, { ...at, projectId: project });
const variant = (id = VARIANT, slug = 'main', project = PROJECT) => ev('accounts.query.variant.created', { query_id: QUERY, variant_id: id, slug, header }, { ...at, projectId: project });
const revision = (version: number, o: { variant?: string; slug?: string; project?: string } = {}) => ev('accounts.query.revision.added', {
  query_id: QUERY, variant_id: o.variant ?? VARIANT, revision_id: rid(version + (o.variant === VARIANT_B ? 50 : 0)), slug: o.slug ?? `rev${version}`, version, header, data_json: '', message: '',
}, { ...at, projectId: o.project ?? PROJECT });
const archive = (target: string, id: string, archived = true) => ev('accounts.query.archive.set', { query_id: QUERY, target, target_id: id, archived }, at);

// The state the artifact loader returns (query-events.ts decides on it): the artifact named by id,
// with its variants; of the slugs the event would take, those taken in its project; the revisions named.
const nothing: ArtifactState = { projectExists: true, artifacts: [], takenSlugs: { artifact: [], variant: [], revision: [] }, revisions: [], storedTestcases: [] };
const main = (latestVersion: number): ArtifactVariantState => ({ id: VARIANT, slug: 'main', latestVersion });
const revisionOf = (n: number, variantId = VARIANT): { id: string; variantId: string } => ({ id: rid(n), variantId });
/** Query QUERY (slug errors) of PROJECT with these variants, the project's revision slugs and the revisions named. */
const query = (variants: ArtifactVariantState[], revisionSlugs: string[] = [], revisions: Array<{ id: string; variantId: string }> = [], slug = 'errors'): ArtifactState => ({
  projectExists: true,
  artifacts: [{ id: QUERY, projectId: PROJECT, family: 'query', variants }],
  takenSlugs: { artifact: [slug], variant: variants.map((v) => v.slug), revision: revisionSlugs },
  revisions, storedTestcases: [],
});
const artifactOnly = query([]);
const noRevision = query([main(-1)]);
const atRev0 = query([main(0)], ['rev0'], [revisionOf(0)]);
const atRev1 = query([main(1)], ['rev0', 'rev1'], [revisionOf(0), revisionOf(1)]);
/** Variant main at revision 0 and a second variant (slug second) without revisions. */
const twoVariants = query([main(0), { id: VARIANT_B, slug: 'second', latestVersion: -1 }], ['rev0'], [revisionOf(0)]);

describe('saved-query aggregate', () => {
  it('given a variant with revisions, when a fork is created with copies, then it is accepted; a copy slug taken twice or in use is refused', () => {
    const copy = (n: number, slug = `rev${n}_fork`) => ({ revision_id: rid(70 + n), slug, header, data_json: '', message: '' });
    const fork = (copies: ReturnType<typeof copy>[]) => ev('accounts.query.variant.created', { query_id: QUERY, variant_id: VARIANT_B, slug: 'fork', header, revisions: copies }, at);
    expect(decideOn(savedQuery, atRev1, fork([copy(0), copy(1)])).status).toBe('accepted');
    expect(decideOn(savedQuery, atRev1, fork([copy(0, 'same'), copy(1, 'same')]))).toMatchObject({ status: 'rejected', code: 'query_revision_slug_exists' });
    expect(decideOn(savedQuery, atRev1, fork([copy(0, 'rev1')]))).toMatchObject({ status: 'rejected', code: 'query_revision_slug_exists' });
    // The fork starts at its copies' last version: the next commit to it claims the version after.
    const forked = query([main(1), { id: VARIANT_B, slug: 'fork', latestVersion: 1 }], ['rev0', 'rev1', 'rev0_fork', 'rev1_fork'],
      [revisionOf(0), revisionOf(1), revisionOf(70, VARIANT_B), revisionOf(71, VARIANT_B)]);
    expect(decideOn(savedQuery, forked, revision(2, { variant: VARIANT_B })).status).toBe('accepted');
  });

  it('given nothing, when an artifact and a variant are created, then each is accepted; a variant without a revision (-1) takes version 0 first', () => {
    expect(decideOn(savedQuery, nothing, artifact()).status).toBe('accepted');
    expect(decideOn(savedQuery, artifactOnly, variant()).status).toBe('accepted');
    expect(decideOn(savedQuery, noRevision, revision(0)).status).toBe('accepted');
    expect(decideOn(savedQuery, noRevision, revision(1))).toMatchObject({ status: 'rejected', code: 'query_version_conflict' });
  });

  it('given a variant, when revisions 0 then 1 are added, then each follows; a second claim of version 1 is query_version_conflict', () => {
    expect(decideOn(savedQuery, atRev0, revision(1)).status).toBe('accepted');
    expect(decideOn(savedQuery, atRev1, revision(1, { slug: 'other' }))).toMatchObject({ status: 'rejected', code: 'query_version_conflict' });
    expect(decideOn(savedQuery, atRev0, revision(2))).toMatchObject({ status: 'rejected', code: 'query_version_conflict' });
  });

  it('given slugs in use, when an artifact, variant or revision reuses one in the project, then 409 codes with the reference message; another project may', () => {
    expect(decideOn(savedQuery, atRev0, { ...artifact(), payload: { ...artifact().payload, query_id: rid(90) } })).toEqual({
      status: 'rejected', code: 'query_slug_exists', message: "A resource with slug 'errors' already exists in this project.", details: { slug: 'errors' },
    });
    expect(decideOn(savedQuery, atRev0, variant(VARIANT_B, 'main'))).toMatchObject({ code: 'query_variant_slug_exists' });
    expect(decideOn(savedQuery, atRev0, variant(VARIANT_B, 'second')).status).toBe('accepted');
    expect(decideOn(savedQuery, twoVariants, revision(0, { variant: VARIANT_B, slug: 'rev0' }))).toMatchObject({ code: 'query_revision_slug_exists' });
    expect(decideOn(savedQuery, nothing, { ...artifact('errors', OTHER) }).status).toBe('accepted');
  });

  it("given another project's query, when a variant, revision or archive names it, then not found", () => {
    expect(decideOn(savedQuery, noRevision, variant(VARIANT_B, 'x', OTHER))).toMatchObject({ code: 'query_not_found' });
    expect(decideOn(savedQuery, noRevision, revision(0, { project: OTHER }))).toMatchObject({ code: 'query_variant_not_found' });
    expect(decideOn(savedQuery, noRevision, archive('variant', VARIANT_B))).toMatchObject({ code: 'query_variant_not_found' });
    expect(decideOn(savedQuery, noRevision, archive('query', QUERY)).status).toBe('accepted');
    // A revision target names a revision: a variant's id is none.
    expect(decideOn(savedQuery, noRevision, archive('revision', VARIANT))).toMatchObject({ code: 'query_revision_not_found' });
    expect(decideOn(savedQuery, noRevision, archive('folder', VARIANT))).toMatchObject({ code: 'malformed_event' });
  });

  it('given events of the first model, when replayed, then the variant takes its hex id as slug and versions count from 0', () => {
    const legacy = (version: number): QueryRevisionInfo => ({ id: rid(version), slug: `old${version}`, version, filtering_json: '', windowing_json: '', focus: '', format: '', message: '' });
    const created = ev('accounts.query.created', { query_id: QUERY, slug: 'old', name: '', description: '', variant_id: VARIANT, variant_slug: 'default', revision: legacy(1) }, at);
    const committed = ev('accounts.query.revision.committed', { query_id: QUERY, variant_id: VARIANT, revision: legacy(2) }, at);
    /** The query as the first model left it: its variant named by its hex id, at `latestVersion`. */
    const legacyQuery = (latestVersion: number, revisionSlugs: string[]): ArtifactState =>
      query([{ id: VARIANT, slug: legacyVariantSlug(VARIANT), latestVersion }], revisionSlugs, [], 'old');
    expect(decideOn(savedQuery, nothing, created).status).toBe('accepted');
    expect(decideOn(savedQuery, legacyQuery(0, ['old1']), committed).status).toBe('accepted');
    // The next revision of the new model follows on.
    expect(decideOn(savedQuery, legacyQuery(1, ['old1', 'old2']), revision(2)).status).toBe('accepted');
    expect(decideOn(savedQuery, legacyQuery(1, ['old1', 'old2']), committed)).toMatchObject({ code: 'query_version_conflict' });
  });

  it('given a project that is gone, when any query event names it, then query_project_not_found (queries go with their project)', () => {
    const gone: ArtifactState = { ...nothing, projectExists: false };
    expect(decideOn(savedQuery, gone, artifact())).toMatchObject({ status: 'rejected', code: 'query_project_not_found' });
    expect(decideOn(savedQuery, { ...atRev0, projectExists: false }, revision(1))).toMatchObject({ status: 'rejected', code: 'query_project_not_found' });
  });

  it('given a malformed id, when decided, then malformed_event', () => {
    expect(decideOn(savedQuery, nothing, { ...artifact(), payload: { ...artifact().payload, query_id: 'nope' } })).toMatchObject({ code: 'malformed_event' });
  });

  describe('single revisions: header edits and archival', () => {
    const edited = (revisionId: string, variantId = VARIANT) => ev('accounts.query.revision.edited', { query_id: QUERY, variant_id: variantId, revision_id: revisionId, header: { ...header, name: 'renamed' } }, at);

    it('given a revision, when its header is edited or it is archived or unarchived, then each is accepted', () => {
      expect(decideOn(savedQuery, atRev1, edited(rid(1))).status).toBe('accepted');
      expect(decideOn(savedQuery, atRev1, archive('revision', rid(0))).status).toBe('accepted');
      expect(decideOn(savedQuery, atRev1, archive('revision', rid(0), false)).status).toBe('accepted');
    });

    it('given no such revision, when it is edited or archived, then query_revision_not_found', () => {
      expect(decideOn(savedQuery, atRev0, edited(rid(7)))).toMatchObject({ status: 'rejected', code: 'query_revision_not_found' });
      expect(decideOn(savedQuery, atRev0, archive('revision', rid(7)))).toMatchObject({ status: 'rejected', code: 'query_revision_not_found' });
    });

    it('given a revision of one variant, when an edit names it under another variant, then query_revision_not_found', () => {
      expect(decideOn(savedQuery, twoVariants, edited(rid(0), VARIANT_B))).toMatchObject({ status: 'rejected', code: 'query_revision_not_found' });
    });

    it("given another project's revision, when this project edits it, then query_revision_not_found", () => {
      const foreign = { ...edited(rid(0)), projectId: OTHER };
      expect(decideOn(savedQuery, atRev0, foreign)).toMatchObject({ status: 'rejected', code: 'query_revision_not_found' });
    });
  });
});
