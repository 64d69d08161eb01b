// Reads, inside the batch transaction, what the identity projection decides on (see
// domain/identity-projection.ts).
import type { PoolClient } from '@llm/postgres';
import type { IdentityFacts, IdentityFactsNeeded } from '../domain/identity-projection.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function readIdentityFacts(c: PoolClient, need: IdentityFactsNeeded): Promise<IdentityFacts> {
  const r = await c.query<{ user_exists: boolean; email_owner: string | null }>(
    `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1::uuid) AS user_exists,
            (SELECT id::text FROM users WHERE $2 <> '' AND lower(email) = lower($2)) AS email_owner`,
    // A malformed id must become a rejection, never a failing cast that would stall the batch.
    [UUID.test(need.userId) ? need.userId : null, need.email],
  );
  const row = r.rows[0]!;
  return { userExists: row.user_exists, ...(row.email_owner !== null ? { emailOwner: row.email_owner } : {}) };
}
