// testsets and their ordered testcases from the testset aggregate's facts (rules: rules.ts).
import { eventTime } from '../../account-event.ts';
import type { TestsetEvent, TestsetState } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

const jsonOrNull = (s: string): string | null => (s === '' ? null : s);

export function projectTestset(e: TestsetEvent, _s: TestsetState): SqlStatement[] {
  const p = e.payload;
  const statements: SqlStatement[] = [{
    text: `INSERT INTO testsets (id, project_id, slug, name, description, tags, meta, variant_id, revision_id, created_at, created_by_id)
           VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9, $10, $11)`,
    values: [p.testset_id, p.project_id, p.slug, p.name || null, p.description || null, jsonOrNull(p.tags_json), jsonOrNull(p.meta_json),
      p.variant_id, p.revision_id, eventTime(e), e.actorId || null],
  }];
  if (p.testcases.length > 0) {
    // One statement for every row: ids, positions and data as parallel arrays.
    statements.push({
      text: `INSERT INTO testcases (id, testset_id, position, data)
             SELECT t.id, $1, t.position - 1, t.data::jsonb FROM unnest($2::uuid[], $3::text[]) WITH ORDINALITY AS t(id, data, position)`,
      values: [p.testset_id, p.testcases.map((c) => c.testcase_id), p.testcases.map((c) => c.data_json)],
    });
  }
  return statements;
}
