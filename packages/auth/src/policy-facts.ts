// Reads of the accounts projection behind the organization auth policy (GET /auth/access, the policy
// check of session requests, POST /auth/discover): organizations with their auth flags, active
// providers and verified domains. Users, their identities and memberships: @llm/accounts-read.
import type { Pool } from '@llm/postgres';
import type { OrganizationAuthFlags, SsoProviderRef } from '@llm/auth-policy';

export interface OrganizationPolicyFacts {
  id: string;
  slug: string;
  flags: OrganizationAuthFlags | null;
  ownerId: string;
  activeProviders: SsoProviderRef[];
  verifiedDomains: string[];
}

/** Organizations by id, each with its active (and valid) providers and verified domains. */
export async function organizationPolicies(pool: Pool, ids: readonly string[]): Promise<OrganizationPolicyFacts[]> {
  if (ids.length === 0) return [];
  const r = await pool.query<{ id: string; slug: string; flags: OrganizationAuthFlags | null; owner_id: string; providers: Array<{ id: string; slug: string }> | null; domains: string[] | null }>(
    `SELECT o.id::text AS id, o.slug, o.flags, o.owner_id::text AS owner_id,
            (SELECT json_agg(json_build_object('id', p.id::text, 'slug', p.slug) ORDER BY p.slug) FROM organization_providers p
              WHERE p.organization_id = o.id AND (p.flags->>'is_active')::boolean AND (p.flags->>'is_valid')::boolean) AS providers,
            (SELECT array_agg(d.domain ORDER BY d.domain) FROM organization_domains d WHERE d.organization_id = o.id AND d.is_verified) AS domains
       FROM organizations o WHERE o.id::text = ANY($1::text[])`,
    [ids],
  );
  return r.rows.map((o) => ({
    id: o.id, slug: o.slug, flags: o.flags, ownerId: o.owner_id,
    activeProviders: (o.providers ?? []).map((p) => ({ ...p, organization_slug: o.slug })),
    verifiedDomains: o.domains ?? [],
  }));
}

/** The organization that has this domain verified (at most one). */
export async function domainOwner(pool: Pool, domain: string): Promise<string | undefined> {
  const r = await pool.query<{ id: string }>('SELECT organization_id::text AS id FROM organization_domains WHERE domain = $1 AND is_verified', [domain]);
  return r.rows[0]?.id;
}
