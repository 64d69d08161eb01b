// What SSO sign-in starts from: the organization and provider behind a third-party id, read through
// their readers (@llm/accounts-read organizations.ts, providers.ts).
import { readOrganizationBySlug, readProviderBySlug, type Queryable } from '@llm/account-model';
import type { OrganizationAuthFlags } from '@llm/auth-policy';

export interface SsoTarget {
  organization: { id: string; slug: string; flags: OrganizationAuthFlags };
  provider?: {
    id: string; slug: string; isActive: boolean;
    issuerUrl: string; clientId: string; clientSecretSealed: string; scopes: string[];
  };
}

/** The organization by slug and, when it has one by that slug, the provider. */
export async function findSsoTarget(q: Queryable, organizationSlug: string, providerSlug: string): Promise<SsoTarget | undefined> {
  const org = await readOrganizationBySlug(q, organizationSlug);
  if (!org) return undefined;
  const p = await readProviderBySlug(q, org.id, providerSlug);
  return {
    organization: { id: org.id, slug: org.slug, flags: org.flags ?? {} },
    ...(p ? {
      provider: {
        id: p.id, slug: p.slug, isActive: p.flags.is_active === true, issuerUrl: p.issuer_url, clientId: p.client_id,
        clientSecretSealed: p.client_secret_sealed, scopes: p.scopes,
      },
    } : {}),
  };
}
