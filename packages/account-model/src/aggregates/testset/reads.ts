// The one reader of testsets and testcases (0015; written by projector-accounts only).
import type { TestsetEvent, TestsetState } from './rules.ts';
import { asUuid, type Queryable } from '../../queryable.ts';
import { existingProjects } from '../project/projects.ts';

export interface TestsetRow {
  id: string; project_id: string; slug: string; name: string | null; description: string | null;
  tags: Record<string, unknown> | null; meta: Record<string, unknown> | null; variant_id: string; revision_id: string;
  created_at: Date; created_by_id: string | null;
}
export interface TestcaseRow { id: string; testset_id: string; position: number; data: Record<string, unknown> }

const COLUMNS = `id::text AS id, project_id::text AS project_id, slug, name, description, tags, meta, variant_id::text AS variant_id,
  revision_id::text AS revision_id, created_at, created_by_id`;

/** What a testset event is decided on: its project and the testsets with its id or slug. */
export async function loadTestsetState(q: Queryable, e: TestsetEvent): Promise<TestsetState> {
  const p = e.payload;
  const projects = await existingProjects(q, [p.project_id]);
  const rows = (await q.query<{ id: string; project_id: string; slug: string }>(
    'SELECT id::text AS id, project_id::text AS project_id, slug FROM testsets WHERE id = $1::uuid OR (project_id = $2::uuid AND slug = $3)',
    [asUuid(p.testset_id), asUuid(p.project_id), p.slug],
  )).rows;
  return { projects: projects.map((id) => ({ id })), testsets: rows.map((r) => ({ id: r.id, projectId: r.project_id, slug: r.slug })) };
}

/** A testset of the project by id (never another project's). */
export async function readTestset(q: Queryable, projectId: string, id: string): Promise<TestsetRow | undefined> {
  const r = await q.query<TestsetRow>(`SELECT ${COLUMNS} FROM testsets WHERE project_id = $1::uuid AND id = $2::uuid`, [asUuid(projectId), asUuid(id)]);
  return r.rows[0];
}

/** A testset's rows in order. */
export async function readTestcases(q: Queryable, testsetId: string): Promise<TestcaseRow[]> {
  const r = await q.query<TestcaseRow>(
    'SELECT id::text AS id, testset_id::text AS testset_id, position, data FROM testcases WHERE testset_id = $1::uuid ORDER BY position',
    [asUuid(testsetId)],
  );
  return r.rows;
}
