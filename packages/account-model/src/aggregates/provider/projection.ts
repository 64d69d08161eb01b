// organization_providers from the provider aggregate's facts (rules: rules.ts).
// The stored row is what the aggregate's own functions say the provider becomes.
import { eventTime } from '../../account-event.ts';
import { parseFlags, type OrganizationAuthState } from '../organization/rules.ts';
import { providerAfterTest, providerAfterUpdate, type ProviderEvent } from './rules.ts';
import type { ProviderInfo } from '@llm/events';
import type { SqlStatement } from '../../statement.ts';

export function projectProvider(e: ProviderEvent, s: OrganizationAuthState): SqlStatement[] {
  const at = eventTime(e);
  switch (e.type) {
    case 'accounts.provider.created':
      return [upsert(e.payload.provider, at, true)];
    case 'accounts.provider.updated': {
      const p = e.payload.provider;
      const before = s.providers.find((x) => x.id === p.provider_id)!;
      const after = providerAfterUpdate(before, p);
      if (!after.moved) return [upsert(p, at, false)];
      const org = s.organization!;
      return [
        upsert({ ...p, flags_json: JSON.stringify(after.flags), client_secret_sealed: after.clientSecretSealed }, at, false),
        // The identity string of sign-ins through this provider until now (see @llm/web-session's ssoIdentity).
        { text: 'DELETE FROM user_identities WHERE method = $1', values: [`sso:${org.slug}:${before.slug}`] },
      ];
    }
    case 'accounts.provider.tested': {
      const before = s.providers.find((x) => x.id === e.payload.provider_id)!;
      return [{
        text: 'UPDATE organization_providers SET flags = $2::jsonb, updated_at = $3, version = version + 1 WHERE id = $1',
        values: [e.payload.provider_id, JSON.stringify(providerAfterTest(before, e.payload.passed).flags), at],
      }];
    }
    case 'accounts.provider.deleted':
      return [{ text: 'DELETE FROM organization_providers WHERE id = $1', values: [e.payload.provider_id] }];
    case 'accounts.provider.secret_resealed':
      return [{
        text: 'UPDATE organization_providers SET client_secret_sealed = $2, updated_at = $3, version = version + 1 WHERE id = $1',
        values: [e.payload.provider_id, e.payload.client_secret_sealed, at],
      }];
  }
}

function upsert(p: ProviderInfo, at: string, create: boolean): SqlStatement {
  const values = [p.provider_id, p.organization_id, p.slug, p.name || null, p.description || null, JSON.stringify(parseFlags(p.flags_json)),
    p.issuer_url, p.client_id, p.client_secret_sealed, p.scopes, JSON.stringify(parseFlags(p.extra_json)), at];
  return create
    ? {
      text: `INSERT INTO organization_providers (id, organization_id, slug, name, description, flags, issuer_url, client_id, client_secret_sealed, scopes, extra, created_at)
             VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11::jsonb, $12)`,
      values,
    }
    : {
      text: `UPDATE organization_providers SET slug = $3, name = $4, description = $5, flags = $6::jsonb, issuer_url = $7, client_id = $8,
               client_secret_sealed = $9, scopes = $10, extra = $11::jsonb, updated_at = $12, version = version + 1
             WHERE id = $1 AND organization_id = $2`,
      values,
    };
}
