// Reads, inside the batch transaction, what the domain projection decides on (see
// domain/domain-projection.ts).
import type { PoolClient } from '@llm/postgres';
import type { DomainFacts, DomainFactsNeeded } from '../domain/domain-projection.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// A malformed id must become a rejection, never a failing cast that would stall the batch.
const asUuid = (s: string): string | null => (UUID.test(s) ? s : null);

export async function readDomainFacts(c: PoolClient, need: DomainFactsNeeded): Promise<DomainFacts> {
  const r = await c.query<{ row_domain: string | null; row_token: string | null; row_verified: boolean | null; name_taken: boolean; verified_by: string | null }>(
    `SELECT d.domain AS row_domain, d.token AS row_token, d.is_verified AS row_verified,
            EXISTS (SELECT 1 FROM organization_domains WHERE organization_id = $2::uuid AND domain = $3 AND id IS DISTINCT FROM $1::uuid) AS name_taken,
            (SELECT organization_id::text FROM organization_domains WHERE domain = $3 AND is_verified) AS verified_by
       FROM (SELECT 1) one
       LEFT JOIN organization_domains d ON d.id = $1::uuid AND d.organization_id = $2::uuid`,
    [asUuid(need.domainId), asUuid(need.organizationId), need.domain],
  );
  const row = r.rows[0]!;
  return {
    ...(row.row_domain !== null ? { row: { domain: row.row_domain, token: row.row_token, isVerified: row.row_verified === true } } : {}),
    nameTakenInOrg: row.name_taken,
    ...(row.verified_by !== null ? { verifiedBy: row.verified_by } : {}),
  };
}
