// Organization domains (reference §4): bodies, the DNS proof's record, and the response shape shared
// by the command side (writes answer with the projected domain) and the query side (the list).
import { domainName, tokenExpiresAt, txtRecord } from '@llm/dns-verify';
import { z } from 'zod';
import { texts } from './text.ts';

export const domainCreate = z.strictObject({
  /** Normalised on the way in (lower case, IDNA, no trailing dot); anything else is a 422 naming why. */
  domain: domainName,
  name: texts.name.nullish(),
  description: texts.description.nullish(),
});
export type DomainCreate = z.infer<typeof domainCreate>;

export const domainVerify = z.strictObject({ domain_id: texts.id.min(1) });

/** A row of the projection (services/projector-accounts/migrations/0003-organization-domains.sql). */
export interface DomainRow {
  id: string;
  organization_id: string;
  domain: string;
  name: string | null;
  description: string | null;
  token: string | null;
  is_verified: boolean;
  created_at: Date;
  updated_at: Date | null;
}

export interface DomainView {
  id: string;
  slug: string;
  name: string | null;
  description: string | null;
  flags: { is_verified: boolean };
  token: string | null;
  created_at: string;
  updated_at: string | null;
  organization_id: string;
  /** While unverified: the record to publish and until when the token is good. */
  dns?: { type: 'TXT'; name: string; value: string; expires_at: string };
}

export function domainView(r: DomainRow): DomainView {
  const view: DomainView = {
    id: r.id, slug: r.domain, name: r.name, description: r.description, flags: { is_verified: r.is_verified },
    token: r.token, created_at: r.created_at.toISOString(), updated_at: r.updated_at ? r.updated_at.toISOString() : null,
    organization_id: r.organization_id,
  };
  if (!r.is_verified && r.token) {
    view.dns = { ...txtRecord(r.domain, r.token), expires_at: tokenExpiresAt(r.created_at).toISOString() };
  }
  return view;
}
