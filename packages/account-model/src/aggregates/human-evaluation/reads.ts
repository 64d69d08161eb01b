// The one reader of human_evaluations and their variant links (0015; written by projector-accounts only).
import type { HumanEvaluationEvent, HumanEvaluationState } from './rules.ts';
import { asUuid, type Queryable } from '../../queryable.ts';
import { readEvaluationApp, readEvaluationTestset, readEvaluationVariants } from './subjects.ts';

/** What an evaluation's creation is decided on: its app, testset and variants as stored (any project: the rule compares). */
export async function loadHumanEvaluationState(q: Queryable, e: HumanEvaluationEvent): Promise<HumanEvaluationState> {
  const p = e.payload;
  // One query after the other: `q` may be the projector's transaction client.
  const app = await readEvaluationApp(q, p.app_id);
  const testset = await readEvaluationTestset(q, p.testset_id);
  const variants = await readEvaluationVariants(q, p.variants.map((v) => v.variant_id));
  const existing = (await q.query<{ id: string }>('SELECT id::text AS id FROM human_evaluations WHERE id = $1::uuid', [asUuid(p.evaluation_id)])).rows;
  return {
    app: app ? { id: app.id, projectId: app.projectId } : undefined,
    testset: testset ? { id: testset.id, projectId: testset.projectId } : undefined,
    variants: variants.map((v) => ({ id: v.id, applicationId: v.applicationId, archived: v.archived, currentRevisionId: v.currentRevisionId })),
    evaluations: existing,
  };
}

/** One evaluation as GET /human-evaluations lists it (§12). */
export interface HumanEvaluationRow {
  id: string; app_id: string; project_id: string; evaluation_type: string; status: string;
  testset_id: string; testset_name: string | null; created_at: Date; updated_at: Date | null;
  variant_ids: string[]; variant_names: Array<string | null>; variants_revision_ids: string[];
  /** The linked revision's number, null when the revision is gone. */
  revisions: Array<number | null>;
}

/** The project's evaluations of an application that have a testset, oldest first. */
export async function listHumanEvaluations(q: Queryable, projectId: string, appId: string): Promise<HumanEvaluationRow[]> {
  const r = await q.query<HumanEvaluationRow>(
    `SELECT e.id::text AS id, e.app_id::text AS app_id, e.project_id::text AS project_id, e.evaluation_type, e.status,
            e.testset_id::text AS testset_id, t.name AS testset_name, e.created_at, e.updated_at,
            coalesce(array_agg(l.variant_id::text ORDER BY l.position) FILTER (WHERE l.position IS NOT NULL), '{}') AS variant_ids,
            coalesce(array_agg(v.name ORDER BY l.position) FILTER (WHERE l.position IS NOT NULL), '{}') AS variant_names,
            coalesce(array_agg(l.revision_id::text ORDER BY l.position) FILTER (WHERE l.position IS NOT NULL), '{}') AS variants_revision_ids,
            coalesce(array_agg(r.version ORDER BY l.position) FILTER (WHERE l.position IS NOT NULL), '{}') AS revisions
       FROM human_evaluations e
       JOIN artifacts t ON t.id = e.testset_id AND t.family = 'testset'
       LEFT JOIN human_evaluation_variants l ON l.evaluation_id = e.id
       LEFT JOIN artifact_variants v ON v.id = l.variant_id
       LEFT JOIN artifact_revisions r ON r.id = l.revision_id
      WHERE e.project_id = $1::uuid AND e.app_id = $2::uuid
      GROUP BY e.id, t.name
      ORDER BY e.created_at, e.id`,
    [asUuid(projectId), asUuid(appId)],
  );
  return r.rows;
}

export interface HumanEvaluationScenarioRow {
  id: string; position: number; inputs: Array<{ input_name: string; input_value: unknown }>; vote: string | null; score: string | null; correct_answer: string;
}

/** An evaluation's scenarios in testset order. */
export async function readHumanEvaluationScenarios(q: Queryable, evaluationId: string): Promise<HumanEvaluationScenarioRow[]> {
  const r = await q.query<HumanEvaluationScenarioRow>(
    'SELECT id::text AS id, position, inputs, vote, score, correct_answer FROM human_evaluation_scenarios WHERE evaluation_id = $1::uuid ORDER BY position',
    [asUuid(evaluationId)],
  );
  return r.rows;
}

/** Which evaluations to count: an organization's, narrowed to a project, a workspace or a user, created in `[from, to)` days. */
export interface EvaluationCount {
  organizationId: string;
  range?: { from: string; to: string } | undefined;
  projectId?: string | undefined;
  workspaceId?: string | undefined;
  userId?: string | undefined;
}

/** The organization's evaluation runs (the quota meter `evaluations_run`). */
export async function countHumanEvaluations(q: Queryable, m: EvaluationCount): Promise<number> {
  const where = ['p.organization_id = $1::uuid'];
  const values: unknown[] = [m.organizationId];
  if (m.range) { values.push(m.range.from, m.range.to); where.push(`h.created_at >= $${values.length - 1}::date AND h.created_at < $${values.length}::date`); }
  if (m.projectId) { values.push(m.projectId); where.push(`h.project_id = $${values.length}::uuid`); }
  if (m.workspaceId) { values.push(m.workspaceId); where.push(`p.workspace_id = $${values.length}::uuid`); }
  if (m.userId !== undefined) { values.push(m.userId); where.push(`h.created_by_id = $${values.length}`); }
  const r = await q.query<{ n: string }>(`SELECT count(*)::text AS n FROM human_evaluations h JOIN projects p ON p.id = h.project_id WHERE ${where.join(' AND ')}`, values);
  return Number(r.rows[0]?.n ?? 0);
}

