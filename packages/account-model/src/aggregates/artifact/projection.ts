// artifacts, artifact_variants, artifact_revisions and artifact_testcases from the artifact
// aggregate's facts (rules: rules.ts; tables: 0021). One statement set for every family.
import { eventTime } from '../../account-event.ts';
import type { ArtifactEvent, ArtifactState } from './rules.ts';
import type { ArtifactHeader, ArtifactRevision, ArtifactVariantSeed } from '@llm/events';
import type { SqlStatement } from '../../statement.ts';

/** JSON text → jsonb ('' = NULL). */
const json = (n: number): string => `NULLIF($${n},'')::jsonb`;
const text = (v: string): string | null => (v === '' ? null : v);
const header = (h: ArtifactHeader | undefined): unknown[] => [text(h?.name ?? ''), text(h?.description ?? ''), h?.flags_json ?? '', h?.tags_json ?? '', h?.meta_json ?? ''];
const HEADER_VALUES = (n: number): string => `$${n},$${n + 1},${json(n + 2)},${json(n + 3)},${json(n + 4)}`;

interface Context { projectId: string; family: string; artifactId: string; at: string; actor: string | null }

function revisionInsert(c: Context, variantId: string, r: ArtifactRevision): SqlStatement {
  return {
    text: `INSERT INTO artifact_revisions (id, artifact_id, variant_id, project_id, family, slug, version, name, description, flags, tags, meta, data, message, created_at, created_by_id)
           VALUES ($1,$2,$3,$4,$5,$6,$7,${HEADER_VALUES(8)},${json(13)},$14,$15,$16)`,
    values: [r.revision_id, c.artifactId, variantId, c.projectId, c.family, r.slug, r.version, ...header(r.header), r.data_json, text(r.message), c.at, c.actor],
  };
}

function variantInserts(c: Context, v: ArtifactVariantSeed): SqlStatement[] {
  const revisions = v.revisions ?? [];
  return [
    {
      text: `INSERT INTO artifact_variants (id, artifact_id, project_id, family, slug, name, description, flags, tags, meta, latest_version, created_at, created_by_id)
             VALUES ($1,$2,$3,$4,$5,${HEADER_VALUES(6)},$11,$12,$13)`,
      values: [v.variant_id, c.artifactId, c.projectId, c.family, v.slug, ...header(v.header), revisions.length - 1, c.at, c.actor],
    },
    ...revisions.map((r) => revisionInsert(c, v.variant_id, r)),
  ];
}

export function projectArtifact(e: ArtifactEvent, _s: ArtifactState): SqlStatement[] {
  const at = eventTime(e);
  const actor = e.actorId || null;
  if (e.type === 'accounts.testcases.stored') {
    const t = e.payload.testcases;
    if (t.length === 0) return [];
    return [{
      text: `INSERT INTO artifact_testcases (id, project_id, testset_id, data, flags, tags, meta, created_at, created_by_id)
             SELECT x.id, $1::uuid, $2::uuid, x.data::jsonb, NULLIF(x.flags,'')::jsonb, NULLIF(x.tags,'')::jsonb, NULLIF(x.meta,'')::jsonb, $8, $9
               FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[]) AS x(id, data, flags, tags, meta)
             ON CONFLICT (id) DO NOTHING`,
      values: [e.projectId, e.payload.testset_id, t.map((x) => x.id), t.map((x) => x.data_json), t.map((x) => x.flags_json), t.map((x) => x.tags_json), t.map((x) => x.meta_json), at, actor],
    }];
  }
  const c: Context = { projectId: e.projectId, family: e.payload.family, artifactId: e.payload.artifact_id, at, actor };
  switch (e.type) {
    case 'accounts.artifact.created': {
      const p = e.payload;
      return [
        {
          text: `INSERT INTO artifacts (id, project_id, family, slug, name, description, flags, tags, meta, created_at, created_by_id)
                 VALUES ($1,$2,$3,$4,${HEADER_VALUES(5)},$10,$11)`,
          values: [p.artifact_id, e.projectId, p.family, p.slug, ...header(p.header), at, actor],
        },
        ...(p.variants ?? []).flatMap((v) => variantInserts(c, v)),
      ];
    }
    case 'accounts.artifact.edited':
      return [{
        text: `UPDATE artifacts SET name = $2, description = $3, flags = ${json(4)}, tags = ${json(5)}, meta = ${json(6)}, updated_at = $7, updated_by_id = $8 WHERE id = $1`,
        values: [e.payload.artifact_id, ...header(e.payload.header), at, actor],
      }];
    case 'accounts.artifact.variant.created':
      return variantInserts(c, e.payload.variant);
    case 'accounts.artifact.variant.edited':
      return [{
        text: `UPDATE artifact_variants SET name = $2, description = $3, flags = ${json(4)}, tags = ${json(5)}, meta = ${json(6)}, updated_at = $7, updated_by_id = $8 WHERE id = $1`,
        values: [e.payload.variant_id, ...header(e.payload.header), at, actor],
      }];
    case 'accounts.artifact.revision.added': {
      const r = e.payload.revision;
      return [
        revisionInsert(c, e.payload.variant_id, r),
        { text: 'UPDATE artifact_variants SET latest_version = $2 WHERE id = $1 AND latest_version = $3', values: [e.payload.variant_id, r.version, r.version - 1] },
      ];
    }
    case 'accounts.artifact.revision.edited':
      return [{
        text: `UPDATE artifact_revisions SET name = $2, description = $3, flags = ${json(4)}, tags = ${json(5)}, meta = ${json(6)}, updated_at = $7, updated_by_id = $8 WHERE id = $1`,
        values: [e.payload.revision_id, ...header(e.payload.header), at, actor],
      }];
    case 'accounts.artifact.archive.set': {
      const p = e.payload;
      const set = p.archived ? 'deleted_at = $2, deleted_by_id = $3' : 'deleted_at = NULL, deleted_by_id = NULL';
      const values = p.archived ? [p.target_id, at, actor] : [p.target_id];
      if (p.target === 'artifact') return [{ text: `UPDATE artifacts SET ${set} WHERE id = $1`, values }];
      if (p.target === 'revision') return [{ text: `UPDATE artifact_revisions SET ${set} WHERE id = $1`, values }];
      return [
        { text: `UPDATE artifact_variants SET ${set} WHERE id = $1`, values },
        { text: `UPDATE artifact_revisions SET ${set} WHERE variant_id = $1`, values },
      ];
    }
  }
}
