// The revisions a simple evaluation names (reference evaluations §2.4, §3.2), read from the artifact
// tables (testsets, applications, evaluators) and the saved queries, in the caller's project only,
// as the run graph takes them (packages/evaluation-model run/graph.ts). An unknown revision is
// `undefined`: the route answers `{count: 0}`, as the reference does.
import {
  familyOf, readArtifact, readQueryRevision, readRevision, readVariant, revisionData, type ArtifactEntity,
} from '@llm/account-model';
import type { GraphRevision, Origin } from '@llm/evaluation-model';
import type { Pool } from '@llm/postgres';

export async function artifactRevisionSource(pool: Pool, projectId: string, entity: ArtifactEntity, revisionId: string, origin: Origin): Promise<GraphRevision | undefined> {
  const family = familyOf(entity);
  const r = await readRevision(pool, projectId, family, { id: revisionId });
  if (!r) return undefined;
  const [a, v] = [await readArtifact(pool, projectId, family, r.artifact_id), await readVariant(pool, projectId, family, { id: r.variant_id })];
  if (!a || !v) return undefined;
  return {
    artifact: { id: a.id, slug: a.slug }, variant: { id: v.id, slug: v.slug }, revision: { id: r.id, slug: r.slug, version: String(r.version) },
    data: await revisionData(pool, r, family, { testcaseIds: false }), origin,
  };
}

export async function queryRevisionSource(pool: Pool, projectId: string, revisionId: string, origin: Origin): Promise<GraphRevision | undefined> {
  const r = await readQueryRevision(pool, projectId, revisionId);
  if (!r) return undefined;
  return {
    artifact: { id: r.query_id, slug: r.query_slug ?? '' }, variant: { id: r.query_variant_id, slug: r.query_variant_slug ?? '' },
    revision: { id: r.id, slug: r.slug, version: r.version }, data: (r.data ?? null) as Record<string, unknown> | null, origin,
  };
}

/** The revisions named by one kind of steps (revision id → origin); undefined when any is unknown in the project. */
export async function revisionsOf(steps: Record<string, Origin>, read: (id: string, origin: Origin) => Promise<GraphRevision | undefined>): Promise<GraphRevision[] | undefined> {
  const out: GraphRevision[] = [];
  for (const [id, origin] of Object.entries(steps)) {
    const r = await read(id, origin);
    if (!r) return undefined;
    out.push(r);
  }
  return out;
}
