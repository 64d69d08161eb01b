// The one reader of organization_providers (0004-organization-auth.sql): the providers' part of
// the organization state, the rows the routes answer with, and SSO's lookups by slug.
import type { ProviderState } from '../organization/rules.ts';
import type { ProviderRow } from '@llm/contracts';
import { asUuid, type Queryable } from '../../queryable.ts';

const PROVIDER = `id::text AS id, organization_id::text AS organization_id, slug, name, description, flags, issuer_url, client_id,
  client_secret_sealed, scopes, extra, version, created_at, updated_at`;

export async function readProvider(q: Queryable, organizationId: string, providerId: string): Promise<ProviderRow | undefined> {
  const id = asUuid(providerId);
  if (id === null) return undefined;
  const r = await q.query<ProviderRow>(`SELECT ${PROVIDER} FROM organization_providers WHERE id = $1 AND organization_id::text = $2`, [id, organizationId]);
  return r.rows[0];
}

export async function readProviderBySlug(q: Queryable, organizationId: string, slug: string): Promise<ProviderRow | undefined> {
  const r = await q.query<ProviderRow>(`SELECT ${PROVIDER} FROM organization_providers WHERE organization_id::text = $1 AND slug = $2`, [organizationId, slug]);
  return r.rows[0];
}

export async function listProviders(q: Queryable, organizationId: string): Promise<ProviderRow[]> {
  const r = await q.query<ProviderRow>(`SELECT ${PROVIDER} FROM organization_providers WHERE organization_id::text = $1 ORDER BY created_at, slug`, [organizationId]);
  return r.rows;
}

export async function loadProviderStates(q: Queryable, organizationId: string): Promise<ProviderState[]> {
  return (await listProviders(q, organizationId)).map((p) => ({
    id: p.id, slug: p.slug, version: p.version, flags: p.flags ?? {}, issuerUrl: p.issuer_url, extra: p.extra ?? {}, clientSecretSealed: p.client_secret_sealed,
  }));
}

/** Active and valid providers per organization id. */
export async function liveProvidersOf(q: Queryable, organizationIds: readonly string[]): Promise<Map<string, Array<{ id: string; slug: string }>>> {
  const out = new Map<string, Array<{ id: string; slug: string }>>();
  if (organizationIds.length === 0) return out;
  const r = await q.query<{ organization_id: string; id: string; slug: string }>(
    `SELECT organization_id::text AS organization_id, id::text AS id, slug FROM organization_providers
      WHERE organization_id::text = ANY($1::text[]) AND (flags->>'is_active')::boolean AND (flags->>'is_valid')::boolean ORDER BY slug`,
    [organizationIds],
  );
  for (const p of r.rows) out.set(p.organization_id, [...(out.get(p.organization_id) ?? []), { id: p.id, slug: p.slug }]);
  return out;
}

/** A provider's sealed client secret, for `npm run secrets:rotate`. */
export interface ProviderSecretRow { id: string; organization_id: string; client_secret_sealed: string; version: number }

/** Providers holding a client secret, across organizations, one keyset page by provider id. */
export async function listProviderSecrets(q: Queryable, page: { after?: string; limit: number }): Promise<ProviderSecretRow[]> {
  const r = await q.query<ProviderSecretRow>(
    `SELECT id::text AS id, organization_id::text AS organization_id, client_secret_sealed, version FROM organization_providers
      WHERE client_secret_sealed <> '' AND ($1::uuid IS NULL OR id > $1::uuid) ORDER BY id LIMIT $2`,
    [page.after === undefined ? null : asUuid(page.after), page.limit],
  );
  return r.rows;
}
