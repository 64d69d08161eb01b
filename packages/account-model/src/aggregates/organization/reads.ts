// The one reader of organizations (0001-accounts.sql, flags and version from 0004-organization-auth.sql):
// the organization aggregate's state (with its providers and verified-domain count, read through
// their own readers), the rows the routes answer with, and the organizations' auth policies.
import type { OrganizationAuthState, OrganizationEvent } from './rules.ts';
import type { ProviderEvent } from '../provider/rules.ts';
import type { OrganizationAuthFlags, SsoProviderRef } from '@llm/auth-policy';
import type { OrganizationRow } from '@llm/contracts';
import { asUuid, type Queryable } from '../../queryable.ts';
import { countVerifiedDomains, verifiedDomainsOf } from '../domain/reads.ts';
import { liveProvidersOf, loadProviderStates } from '../provider/reads.ts';

const ORG = 'id::text AS id, name, slug, description, flags, owner_id::text AS owner_id, created_at, updated_at, version';

export async function readOrganization(q: Queryable, organizationId: string): Promise<OrganizationRow | undefined> {
  const id = asUuid(organizationId);
  if (id === null) return undefined;
  const r = await q.query<OrganizationRow>(`SELECT ${ORG} FROM organizations WHERE id = $1`, [id]);
  return r.rows[0];
}

export async function readOrganizationBySlug(q: Queryable, slug: string): Promise<OrganizationRow | undefined> {
  const r = await q.query<OrganizationRow>(`SELECT ${ORG} FROM organizations WHERE slug = $1`, [slug]);
  return r.rows[0];
}

/** The state organization and provider events are decided on. */
export async function loadOrganizationAuthState(q: Queryable, organizationId: string): Promise<OrganizationAuthState> {
  const org = await readOrganization(q, organizationId);
  if (!org) return { providers: [], verifiedDomains: 0 };
  // One after the other: `q` may be the projector's transaction client, which runs one query at a time.
  const providers = await loadProviderStates(q, org.id);
  const verifiedDomains = await countVerifiedDomains(q, org.id);
  return { organization: { id: org.id, slug: org.slug, version: org.version, flags: org.flags ?? {} }, providers, verifiedDomains };
}

export const loadOrganizationState = (q: Queryable, e: OrganizationEvent): Promise<OrganizationAuthState> => loadOrganizationAuthState(q, e.payload.organization_id);

export const loadProviderEventState = (q: Queryable, e: ProviderEvent): Promise<OrganizationAuthState> =>
  loadOrganizationAuthState(q, e.type === 'accounts.provider.created' || e.type === 'accounts.provider.updated' ? e.payload.provider.organization_id : e.payload.organization_id);

/** What the organization auth policy (GET /auth/access, session requests, POST /auth/discover) decides on. */
export interface OrganizationPolicy {
  id: string;
  slug: string;
  flags: OrganizationAuthFlags | null;
  ownerId: string;
  activeProviders: SsoProviderRef[];
  verifiedDomains: string[];
}

/** Organizations by id, each with its active (and valid) providers and verified domains. */
export async function organizationPolicies(q: Queryable, ids: readonly string[]): Promise<OrganizationPolicy[]> {
  if (ids.length === 0) return [];
  const r = await q.query<{ id: string; slug: string; flags: OrganizationAuthFlags | null; owner_id: string }>(
    'SELECT id::text AS id, slug, flags, owner_id::text AS owner_id FROM organizations WHERE id::text = ANY($1::text[])', [ids]);
  const found = r.rows.map((o) => o.id);
  const providers = await liveProvidersOf(q, found);
  const domains = await verifiedDomainsOf(q, found);
  return r.rows.map((o) => ({
    id: o.id, slug: o.slug, flags: o.flags, ownerId: o.owner_id,
    activeProviders: (providers.get(o.id) ?? []).map((p) => ({ ...p, organization_slug: o.slug })),
    verifiedDomains: domains.get(o.id) ?? [],
  }));
}

/** Ids of the organizations the user owns (they go with the user). */
export async function organizationsOwnedBy(q: Queryable, userId: string): Promise<string[]> {
  const r = await q.query<{ id: string }>('SELECT id::text AS id FROM organizations WHERE owner_id = $1::uuid ORDER BY id', [asUuid(userId)]);
  return r.rows.map((x) => x.id);
}
