// The one reader of organization_domains (0003-organization-domains.sql; written by
// projector-accounts only): the domain aggregate's state, the rows the routes answer with, and who
// has a name verified (sign-in and access policy).
import type { DomainEvent, DomainState } from './rules.ts';
import type { DomainRow } from '@llm/contracts';
import { asUuid, type Queryable } from '../../queryable.ts';

const COLUMNS = 'id::text AS id, organization_id::text AS organization_id, domain, name, description, token, is_verified, created_at, updated_at';

/** The claims a domain event is decided on: every claim on its name, and the claim with its id. */
export const loadDomainState = (q: Queryable, e: DomainEvent): Promise<DomainState> => loadDomainClaims(q, e.payload.domain, e.payload.domain_id);

export async function loadDomainClaims(q: Queryable, domain: string, domainId?: string): Promise<DomainState> {
  const r = await q.query<{ id: string; organization_id: string; domain: string; token: string | null; is_verified: boolean }>(
    `SELECT id::text AS id, organization_id::text AS organization_id, domain, token, is_verified
       FROM organization_domains WHERE domain = $1 OR id = $2::uuid ORDER BY created_at, id`,
    [domain, asUuid(domainId)],
  );
  return { claims: r.rows.map((x) => ({ id: x.id, organizationId: x.organization_id, domain: x.domain, token: x.token, verified: x.is_verified })) };
}

export async function readDomain(q: Queryable, organizationId: string, domainId: string): Promise<DomainRow | undefined> {
  const id = asUuid(domainId);
  if (id === null) return undefined;
  const r = await q.query<DomainRow>(`SELECT ${COLUMNS} FROM organization_domains WHERE id = $1 AND organization_id::text = $2`, [id, organizationId]);
  return r.rows[0];
}

export async function findDomainByName(q: Queryable, organizationId: string, domain: string): Promise<DomainRow | undefined> {
  const r = await q.query<DomainRow>(`SELECT ${COLUMNS} FROM organization_domains WHERE organization_id::text = $1 AND domain = $2`, [organizationId, domain]);
  return r.rows[0];
}

export async function listDomains(q: Queryable, organizationId: string): Promise<DomainRow[]> {
  const r = await q.query<DomainRow>(`SELECT ${COLUMNS} FROM organization_domains WHERE organization_id::text = $1 ORDER BY created_at, domain`, [organizationId]);
  return r.rows;
}

/** The organization that has this name verified, if any. */
export async function domainOwner(q: Queryable, domain: string): Promise<string | undefined> {
  const r = await q.query<{ id: string }>('SELECT organization_id::text AS id FROM organization_domains WHERE domain = $1 AND is_verified', [domain]);
  return r.rows[0]?.id;
}

export async function countVerifiedDomains(q: Queryable, organizationId: string): Promise<number> {
  const r = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM organization_domains WHERE organization_id::text = $1 AND is_verified', [organizationId]);
  return r.rows[0]?.n ?? 0;
}

/** The verified names of an organization (access policy: domains_only). */
export async function verifiedDomainNames(q: Queryable, organizationId: string): Promise<string[]> {
  const r = await q.query<{ domain: string }>('SELECT domain FROM organization_domains WHERE organization_id::text = $1 AND is_verified ORDER BY domain', [organizationId]);
  return r.rows.map((x) => x.domain);
}

/** Verified names per organization id. */
export async function verifiedDomainsOf(q: Queryable, organizationIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (organizationIds.length === 0) return out;
  const r = await q.query<{ organization_id: string; domain: string }>(
    `SELECT organization_id::text AS organization_id, domain FROM organization_domains
      WHERE organization_id::text = ANY($1::text[]) AND is_verified ORDER BY domain`,
    [organizationIds],
  );
  for (const d of r.rows) out.set(d.organization_id, [...(out.get(d.organization_id) ?? []), d.domain]);
  return out;
}
