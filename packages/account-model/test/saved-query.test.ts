// Given/when/then of the saved-query aggregate: artifact, variant and revision slugs unique per
// project, revisions numbered 0, 1, … per variant in log order (a commit claiming a taken version
// is refused), and events of the first model still deciding the same way on replay.
import { describe, expect, it } from 'vitest';
import type { QueryHeader, QueryRevisionInfo } from '@llm/events';
import { legacyVariantSlug, savedQuery } from '../src/aggregates/saved-query.ts';
import { ev, given } from './support/given.ts';

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

describe('saved-query aggregate', () => {
  it('given a variant with revisions, when a fork is created with copies, then it starts at the copies\' last version; a copy slug taken twice or in use is refused', () => {
    const copy = (n: number, slug = `rev${n}_fork`) => ({ revision_id: rid(70 + n), slug, header, data_json: '', message: '' });
    const fork = (copies: ReturnType<typeof copy>[]) => ev('accounts.query.variant.created', { query_id: QUERY, variant_id: VARIANT_B, slug: 'fork', header, revisions: copies }, at);
    const h = given(savedQuery, [artifact(), variant(), revision(0), revision(1)]);
    const t = h.when(fork([copy(0), copy(1)]));
    expect(t.decision.status).toBe('accepted');
    expect(t.state.queries[0]!.variants[1]).toEqual({ id: VARIANT_B, slug: 'fork', latestVersion: 1 });
    expect(h.when(fork([copy(0, 'same'), copy(1, 'same')])).decision).toMatchObject({ status: 'rejected', code: 'query_revision_slug_exists' });
    expect(h.when(fork([copy(0, 'rev1')])).decision).toMatchObject({ status: 'rejected', code: 'query_revision_slug_exists' });
    // The next commit to the fork claims the version after its copies.
    expect(given(savedQuery, [artifact(), variant(), revision(0), revision(1), fork([copy(0), copy(1)])]).when(revision(2, { variant: VARIANT_B })).decision.status).toBe('accepted');
  });

  it('given nothing, when an artifact and a variant are created, then the variant has no revision yet (-1)', () => {
    const t = given(savedQuery, [artifact()]).when(variant());
    expect(t.decision.status).toBe('accepted');
    expect(t.state.queries).toEqual([{ id: QUERY, projectId: PROJECT, slug: 'errors', variants: [{ id: VARIANT, slug: 'main', latestVersion: -1 }] }]);
  });

  it('given a variant, when revisions 0 then 1 are added, then each follows; a second claim of version 1 is query_version_conflict', () => {
    const h = given(savedQuery, [artifact(), variant(), revision(0)]);
    const t = h.when(revision(1));
    expect(t.decision.status).toBe('accepted');
    expect(t.state.queries[0]!.variants[0]!.latestVersion).toBe(1);
    const lost = given(savedQuery, [artifact(), variant(), revision(0), revision(1)]).when(revision(1, { slug: 'other' }));
    expect(lost.decision).toMatchObject({ status: 'rejected', code: 'query_version_conflict' });
    expect(h.when(revision(2)).decision).toMatchObject({ status: 'rejected', code: 'query_version_conflict' });
  });

  it('given slugs in use, when an artifact, variant or revision reuses one in the project, then 409 codes with the reference message; another project may', () => {
    const h = given(savedQuery, [artifact(), variant(), revision(0)]);
    expect(h.when({ ...artifact(), payload: { ...artifact().payload, query_id: rid(90) } }).decision).toEqual({
      status: 'rejected', code: 'query_slug_exists', message: "A resource with slug 'errors' already exists in this project.", details: { slug: 'errors' },
    });
    expect(h.when(variant(VARIANT_B, 'main')).decision).toMatchObject({ code: 'query_variant_slug_exists' });
    expect(h.when(variant(VARIANT_B, 'second')).decision.status).toBe('accepted');
    const withB = given(savedQuery, [artifact(), variant(), revision(0), variant(VARIANT_B, 'second')]);
    expect(withB.when(revision(0, { variant: VARIANT_B, slug: 'rev0' })).decision).toMatchObject({ code: 'query_revision_slug_exists' });
    expect(given(savedQuery, []).when({ ...artifact('errors', OTHER) }).decision.status).toBe('accepted');
  });

  it("given another project's query, when a variant, revision or archive names it, then not found", () => {
    const h = given(savedQuery, [artifact(), variant()]);
    expect(h.when(variant(VARIANT_B, 'x', OTHER)).decision).toMatchObject({ code: 'query_not_found' });
    expect(h.when(revision(0, { project: OTHER })).decision).toMatchObject({ code: 'query_variant_not_found' });
    expect(h.when(archive('variant', VARIANT_B)).decision).toMatchObject({ code: 'query_variant_not_found' });
    expect(h.when(archive('query', QUERY)).decision.status).toBe('accepted');
    // A revision target names a revision: a variant's id is none.
    expect(h.when(archive('revision', VARIANT)).decision).toMatchObject({ code: 'query_revision_not_found' });
    expect(h.when(archive('folder', VARIANT)).decision).toMatchObject({ code: 'malformed_event' });
  });

  it('given events of the first model, when replayed, then the variant takes its hex id as slug and versions count from 0', () => {
    const legacy = (version: number): QueryRevisionInfo => ({ id: rid(version), slug: `old${version}`, version, filtering_json: '', windowing_json: '', focus: '', format: '', message: '' });
    const created = ev('accounts.query.created', { query_id: QUERY, slug: 'old', name: '', description: '', variant_id: VARIANT, variant_slug: 'default', revision: legacy(1) }, at);
    const committed = ev('accounts.query.revision.committed', { query_id: QUERY, variant_id: VARIANT, revision: legacy(2) }, at);
    const t = given(savedQuery, [created]).when(committed);
    expect(t.decision.status).toBe('accepted');
    expect(t.state.queries[0]!.variants).toEqual([{ id: VARIANT, slug: legacyVariantSlug(VARIANT), latestVersion: 1 }]);
    // The next revision of the new model follows on.
    expect(given(savedQuery, [created, committed]).when(revision(2)).decision.status).toBe('accepted');
    expect(given(savedQuery, [created, committed]).when(committed).decision).toMatchObject({ code: 'query_version_conflict' });
  });

  it('given a malformed id, when decided, then malformed_event', () => {
    expect(given(savedQuery, []).when({ ...artifact(), payload: { ...artifact().payload, query_id: 'nope' } }).decision).toMatchObject({ code: 'malformed_event' });
  });

  describe('single revisions: header edits and archival', () => {
    const edited = (revisionId: string, variantId = VARIANT) => ev('accounts.query.revision.edited', { query_id: QUERY, variant_id: variantId, revision_id: revisionId, header: { ...header, name: 'renamed' } }, at);

    it('given a revision, when its header is edited or it is archived or unarchived, then each is accepted and versions are unchanged', () => {
      const h = given(savedQuery, [artifact(), variant(), revision(0), revision(1)]);
      const t = h.when(edited(rid(1)));
      expect(t.decision.status).toBe('accepted');
      expect(t.state.queries[0]!.variants[0]!.latestVersion).toBe(1);
      expect(h.when(archive('revision', rid(0))).decision.status).toBe('accepted');
      expect(h.when(archive('revision', rid(0), false)).decision.status).toBe('accepted');
    });

    it('given no such revision, when it is edited or archived, then query_revision_not_found', () => {
      const h = given(savedQuery, [artifact(), variant(), revision(0)]);
      expect(h.when(edited(rid(7))).decision).toMatchObject({ status: 'rejected', code: 'query_revision_not_found' });
      expect(h.when(archive('revision', rid(7))).decision).toMatchObject({ status: 'rejected', code: 'query_revision_not_found' });
    });

    it('given a revision of one variant, when an edit names it under another variant, then query_revision_not_found', () => {
      const h = given(savedQuery, [artifact(), variant(), variant(VARIANT_B, 'second'), revision(0)]);
      expect(h.when(edited(rid(0), VARIANT_B)).decision).toMatchObject({ status: 'rejected', code: 'query_revision_not_found' });
    });

    it("given another project's revision, when this project edits it, then query_revision_not_found", () => {
      const h = given(savedQuery, [artifact(), variant(), revision(0)]);
      const foreign = { ...edited(rid(0)), projectId: OTHER };
      expect(h.when(foreign).decision).toMatchObject({ status: 'rejected', code: 'query_revision_not_found' });
    });
  });
});
