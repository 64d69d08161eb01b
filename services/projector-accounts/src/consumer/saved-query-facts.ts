// Reads, inside the batch transaction, what the saved-query projection decides on (see
// domain/saved-query-projection.ts).
import type { PoolClient } from '@llm/postgres';
import type { SavedQueryFacts, SavedQueryFactsNeeded } from '../domain/saved-query-projection.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// A malformed id in an event must become a rejection (the projection checks ids), never a failing
// cast that would stall the batch: such ids are looked up as NULL, which matches nothing.
const asUuid = (s: string | undefined): string | null => (s !== undefined && UUID.test(s) ? s : null);

export async function readSavedQueryFacts(c: PoolClient, need: SavedQueryFactsNeeded): Promise<SavedQueryFacts> {
  const r = await c.query<{ query_exists: boolean; slug_taken: boolean; revision_slug_taken: boolean; variant_version: number | null }>(
    `SELECT EXISTS (SELECT 1 FROM saved_queries WHERE id = $2::uuid) AS query_exists,
            EXISTS (SELECT 1 FROM saved_queries WHERE project_id = $1::uuid AND slug = $3) AS slug_taken,
            EXISTS (SELECT 1 FROM saved_query_revisions WHERE project_id = $1::uuid AND slug = $4) AS revision_slug_taken,
            (SELECT latest_version FROM saved_query_variants
              WHERE id = $5::uuid AND query_id = $2::uuid AND project_id = $1::uuid) AS variant_version`,
    [asUuid(need.projectId), asUuid(need.queryId), need.slug ?? null, need.revisionSlug, asUuid(need.variantId)],
  );
  const row = r.rows[0]!;
  return {
    queryExists: row.query_exists,
    slugTaken: row.slug_taken,
    revisionSlugTaken: row.revision_slug_taken,
    variantVersion: row.variant_version ?? undefined,
  };
}
