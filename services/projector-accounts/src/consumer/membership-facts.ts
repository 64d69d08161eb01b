// Reads, inside the batch transaction, what the membership projection decides on.
import type { PoolClient } from '@llm/postgres';
import type { MembershipFacts, MembershipFactsNeeded } from '../domain/membership-projection.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const asUuid = (s: string): string | null => (UUID.test(s) ? s : null);

export async function readMembershipFacts(c: PoolClient, need: MembershipFactsNeeded): Promise<MembershipFacts> {
  const r = await c.query<{ org: boolean; usr: boolean; owner: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM organizations WHERE id = $1::uuid) AS org,
            EXISTS (SELECT 1 FROM users WHERE id = $2::uuid) AS usr,
            EXISTS (SELECT 1 FROM organizations WHERE id = $1::uuid AND owner_id = $2::uuid) AS owner`,
    [asUuid(need.organizationId), asUuid(need.userId)],
  );
  const row = r.rows[0]!;
  return { organizationExists: row.org, userExists: row.usr, isOwner: row.owner };
}
