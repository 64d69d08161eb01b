// What a human evaluation names — an application, its variants with their current revision, a
// testset with its rows — read from the artifact tables (0021; the first model's applications and
// testsets are there too since 0024). Looked up by id in any project: the rules compare the project.
import { asUuid, type Queryable } from '../../queryable.ts';

export interface EvaluationSubject { id: string; projectId: string; name: string | null }
export interface EvaluationVariant { id: string; applicationId: string; archived: boolean; name: string | null; currentRevisionId: string | undefined }

export async function readEvaluationApp(q: Queryable, id: string): Promise<EvaluationSubject | undefined> {
  const r = await q.query<{ id: string; project_id: string; name: string | null }>(
    `SELECT id::text AS id, project_id::text AS project_id, name FROM artifacts WHERE id = $1::uuid AND family = 'workflow'`, [asUuid(id)]);
  const row = r.rows[0];
  return row ? { id: row.id, projectId: row.project_id, name: row.name } : undefined;
}

export async function readEvaluationTestset(q: Queryable, id: string): Promise<EvaluationSubject | undefined> {
  const r = await q.query<{ id: string; project_id: string; name: string | null }>(
    `SELECT id::text AS id, project_id::text AS project_id, name FROM artifacts WHERE id = $1::uuid AND family = 'testset'`, [asUuid(id)]);
  const row = r.rows[0];
  return row ? { id: row.id, projectId: row.project_id, name: row.name } : undefined;
}

/** The variants by id, each with its current revision (its latest). */
export async function readEvaluationVariants(q: Queryable, ids: readonly string[]): Promise<EvaluationVariant[]> {
  const wanted = ids.map(asUuid).filter((x) => x !== null);
  if (wanted.length === 0) return [];
  const r = await q.query<{ id: string; application_id: string; archived: boolean; name: string | null; revision_id: string | null }>(
    `SELECT v.id::text AS id, v.artifact_id::text AS application_id, v.deleted_at IS NOT NULL AS archived, v.name,
            (SELECT r.id::text FROM artifact_revisions r WHERE r.variant_id = v.id ORDER BY r.version DESC LIMIT 1) AS revision_id
       FROM artifact_variants v WHERE v.id = ANY($1::uuid[]) AND v.family = 'workflow'`,
    [wanted],
  );
  return r.rows.map((v) => ({ id: v.id, applicationId: v.application_id, archived: v.archived, name: v.name, currentRevisionId: v.revision_id ?? undefined }));
}

/** A testset's rows in order: its default variant's latest revision's. */
export async function readEvaluationRows(q: Queryable, testsetId: string): Promise<Array<{ id: string; data: Record<string, unknown> }>> {
  const r = await q.query<{ id: string; data: Record<string, unknown> }>(
    `WITH head AS (
       SELECT r.data FROM artifact_variants v JOIN artifact_revisions r ON r.variant_id = v.id
        WHERE v.artifact_id = $1::uuid AND v.id = (SELECT id FROM artifact_variants WHERE artifact_id = $1::uuid ORDER BY created_at, id LIMIT 1)
        ORDER BY r.version DESC LIMIT 1)
     SELECT t.id::text AS id, t.data FROM head, jsonb_array_elements_text(coalesce(head.data->'testcase_ids', '[]'::jsonb)) WITH ORDINALITY AS w(id, n)
       JOIN artifact_testcases t ON t.id = w.id::uuid AND t.testset_id = $1::uuid
     ORDER BY w.n`,
    [asUuid(testsetId)],
  );
  return r.rows;
}
