// Reads of the organization-domain projection the domain commands decide on and answer from.
import type { DomainRow } from '@llm/contracts';
import type { Pool } from '@llm/postgres';

const COLUMNS = 'id::text AS id, organization_id::text AS organization_id, domain, name, description, token, is_verified, created_at, updated_at';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function readDomain(pool: Pool, organizationId: string, domainId: string): Promise<DomainRow | undefined> {
  if (!UUID.test(domainId)) return undefined;
  const r = await pool.query<DomainRow>(`SELECT ${COLUMNS} FROM organization_domains WHERE id = $1 AND organization_id::text = $2`, [domainId, organizationId]);
  return r.rows[0];
}

export async function findDomainByName(pool: Pool, organizationId: string, domain: string): Promise<DomainRow | undefined> {
  const r = await pool.query<DomainRow>(`SELECT ${COLUMNS} FROM organization_domains WHERE organization_id::text = $1 AND domain = $2`, [organizationId, domain]);
  return r.rows[0];
}

/** The organization that has this name verified, if any. */
export async function verifiedBy(pool: Pool, domain: string): Promise<string | undefined> {
  const r = await pool.query<{ organization_id: string }>('SELECT organization_id::text AS organization_id FROM organization_domains WHERE domain = $1 AND is_verified', [domain]);
  return r.rows[0]?.organization_id;
}
