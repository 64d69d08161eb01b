// Reads of the accounts projection that SSO sign-in decides on: the organization and provider
// behind a third-party id (organizations/organization_providers, 0004-organization-auth.sql). The
// users and their identities are read through @llm/accounts-read (users.ts).
import type { Pool } from '@llm/postgres';
import type { OrganizationAuthFlags } from '@llm/auth-policy';

export interface SsoTarget {
  organization: { id: string; slug: string; flags: OrganizationAuthFlags };
  provider?: {
    id: string; slug: string; isActive: boolean;
    issuerUrl: string; clientId: string; clientSecretSealed: string; scopes: string[];
  };
}

/** The organization by slug and, when it has one by that slug, the provider. */
export async function findSsoTarget(pool: Pool, organizationSlug: string, providerSlug: string): Promise<SsoTarget | undefined> {
  const r = await pool.query<{
    org_id: string; org_slug: string; flags: OrganizationAuthFlags | null;
    id: string | null; slug: string | null; is_active: boolean | null; issuer_url: string | null; client_id: string | null;
    client_secret_sealed: string | null; scopes: string[] | null;
  }>(
    `SELECT o.id::text AS org_id, o.slug AS org_slug, o.flags,
            p.id::text AS id, p.slug, (p.flags->>'is_active')::boolean AS is_active, p.issuer_url, p.client_id, p.client_secret_sealed, p.scopes
       FROM organizations o
       LEFT JOIN organization_providers p ON p.organization_id = o.id AND p.slug = $2
      WHERE o.slug = $1`,
    [organizationSlug, providerSlug],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    organization: { id: row.org_id, slug: row.org_slug, flags: row.flags ?? {} },
    ...(row.id !== null ? {
      provider: {
        id: row.id, slug: row.slug ?? providerSlug, isActive: row.is_active === true, issuerUrl: row.issuer_url ?? '', clientId: row.client_id ?? '',
        clientSecretSealed: row.client_secret_sealed ?? '', scopes: row.scopes ?? [],
      },
    } : {}),
  };
}
