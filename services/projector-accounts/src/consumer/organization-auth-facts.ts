// Reads, inside the batch transaction, what the organization-auth projection decides on (see
// domain/organization-auth-projection.ts).
import type { PoolClient } from '@llm/postgres';
import type { OrganizationAuthFacts, OrganizationAuthFactsNeeded } from '../domain/organization-auth-projection.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// A malformed id must become a rejection, never a failing cast that would stall the batch.
const asUuid = (s: string | undefined): string | null => (s !== undefined && UUID.test(s) ? s : null);

export async function readOrganizationAuthFacts(c: PoolClient, need: OrganizationAuthFactsNeeded): Promise<OrganizationAuthFacts> {
  const org = asUuid(need.organizationId);
  const r = await c.query<{
    org_version: number | null; org_slug: string | null; org_flags: Record<string, unknown> | null;
    p_version: number | null; p_slug: string | null; p_flags: Record<string, unknown> | null;
    p_issuer_url: string | null; p_extra: Record<string, unknown> | null; p_secret: string | null;
    slug_taken: boolean; live: string[] | null;
  }>(
    `SELECT o.version AS org_version, o.slug AS org_slug, o.flags AS org_flags,
            p.version AS p_version, p.slug AS p_slug, p.flags AS p_flags,
            p.issuer_url AS p_issuer_url, p.extra AS p_extra, p.client_secret_sealed AS p_secret,
            EXISTS (SELECT 1 FROM organization_providers x WHERE x.organization_id = $1::uuid AND x.slug = $3 AND x.id IS DISTINCT FROM $2::uuid) AS slug_taken,
            (SELECT array_agg(x.id::text) FROM organization_providers x WHERE x.organization_id = $1::uuid
                AND (x.flags->>'is_active')::boolean AND (x.flags->>'is_valid')::boolean) AS live
       FROM (SELECT 1) one
       LEFT JOIN organizations o ON o.id = $1::uuid
       LEFT JOIN organization_providers p ON p.id = $2::uuid AND p.organization_id = $1::uuid`,
    [org, asUuid(need.providerId), need.slug ?? ''],
  );
  const row = r.rows[0]!;
  return {
    ...(row.org_version !== null ? { organization: { version: row.org_version, slug: row.org_slug ?? '', flags: row.org_flags ?? {} } } : {}),
    ...(row.p_version !== null ? {
      provider: {
        version: row.p_version, slug: row.p_slug ?? '', flags: row.p_flags ?? {},
        issuerUrl: row.p_issuer_url ?? '', extra: row.p_extra ?? {}, clientSecretSealed: row.p_secret ?? '',
      },
    } : {}),
    slugTaken: row.slug_taken,
    activeValidProviders: row.live ?? [],
  };
}
