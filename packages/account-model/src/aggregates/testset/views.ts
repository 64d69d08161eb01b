// How a testset reads to a client (reference compat §4.2), for the command's writes and the query
// service's reads alike.
import type { TestcaseRow, TestsetRow } from './reads.ts';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function testsetView(t: TestsetRow, rows: TestcaseRow[]): Record<string, unknown> {
  return {
    id: t.id, slug: t.slug, name: t.name ?? t.slug, description: t.description, tags: t.tags, meta: t.meta,
    data: { testcases: rows.map((r) => ({ id: r.id, data: r.data, testset_id: r.testset_id })) },
    variant_id: t.variant_id, revision_id: t.revision_id, created_at: iso(t.created_at), created_by_id: t.created_by_id,
  };
}
