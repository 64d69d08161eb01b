// Organizations and their SSO providers as projected (tables of 0001-accounts.sql and
// 0004-organization-auth.sql).
import type { OrganizationRow, ProviderRow } from '@llm/contracts';
import type { Pool } from '@llm/postgres';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ORG = 'id::text AS id, name, slug, description, flags, owner_id::text AS owner_id, created_at, updated_at, version';
const PROVIDER = `id::text AS id, organization_id::text AS organization_id, slug, name, description, flags, issuer_url, client_id,
  client_secret_sealed, scopes, extra, version, created_at, updated_at`;

export async function readOrganization(pool: Pool, organizationId: string): Promise<OrganizationRow | undefined> {
  if (!UUID.test(organizationId)) return undefined;
  const r = await pool.query<OrganizationRow>(`SELECT ${ORG} FROM organizations WHERE id = $1`, [organizationId]);
  return r.rows[0];
}

export async function readProvider(pool: Pool, organizationId: string, providerId: string): Promise<ProviderRow | undefined> {
  if (!UUID.test(providerId)) return undefined;
  const r = await pool.query<ProviderRow>(`SELECT ${PROVIDER} FROM organization_providers WHERE id = $1 AND organization_id::text = $2`, [providerId, organizationId]);
  return r.rows[0];
}

export async function listProviders(pool: Pool, organizationId: string): Promise<ProviderRow[]> {
  const r = await pool.query<ProviderRow>(`SELECT ${PROVIDER} FROM organization_providers WHERE organization_id::text = $1 ORDER BY created_at, slug`, [organizationId]);
  return r.rows;
}

/** The member's role in the organization (undefined: not a member). */
export async function memberRole(pool: Pool, organizationId: string, userId: string): Promise<string | undefined> {
  const r = await pool.query<{ role: string }>(
    `SELECT role FROM memberships WHERE scope = 'organization' AND scope_id::text = $1 AND user_id::text = $2`, [organizationId, userId],
  );
  return r.rows[0]?.role;
}
