// The one way an organization, a project or a user is removed, whoever asks (an owner, an
// operator's entity, account or graph route): decided first, then what lives beside the log goes —
// the domains' claims as their own events, the vault's data keys shredded (a replay cascades the rows
// again but never brings a destroyed key back) — then the event, then the removed keys are forgotten
// by this process's key cache so they stop working at once.
import type { Request } from 'express';
import { apiKeyPrefixesOfOrganization, domainKey, listApiKeys, listDomains, organizationKey, organizationsOwnedBy, projectsOfOrganizations, userKey } from '@llm/account-model';
import type { Pool } from '@llm/postgres';
import { orThrow, type AccountCommands } from './account-commands.ts';
import { shredKeysOfOwners } from '../../vault/adapters/secret-key-store.ts';

export interface AccountRemovalDeps {
  pool: Pool;
  commands: AccountCommands;
  forgetKey?: ((prefix: string) => void) | undefined;
}

export function accountRemovals(deps: AccountRemovalDeps) {
  const { pool, commands } = deps;
  const forget = (prefixes: string[]): void => { for (const p of prefixes) deps.forgetKey?.(p); };

  return {
    /** An organization with everything in it; `actorId` '' = an operator (any organization, even an owner's last). */
    async organization(req: Request, organizationId: string, actorId: string): Promise<void> {
      const meta = { requestId: req.id, organizationId, aggregateId: organizationKey(organizationId), ...(actorId ? { actorId } : {}) };
      const change = {
        type: 'accounts.organization.deleted' as const, key: organizationKey(organizationId),
        payload: { organization_id: organizationId, actor_id: actorId, ...(actorId ? {} : { by_operator: true }) }, meta,
      };
      orThrow(await commands.decideEarly(change));
      // Domains are their own aggregates (keyed by name): each is released as its own event, so the
      // name can be claimed again and a replay rebuilds the same claims.
      for (const d of await listDomains(pool, organizationId)) {
        await commands.commit({
          type: 'accounts.domain.deleted', key: domainKey(d.domain), payload: { domain_id: d.id, organization_id: organizationId, domain: d.domain },
          meta: { ...meta, aggregateId: `domain:${d.id}` },
        });
      }
      const prefixes = await apiKeyPrefixesOfOrganization(pool, organizationId);
      await shredKeysOfOwners(pool, [organizationId, ...await projectsOfOrganizations(pool, [organizationId])]);
      await commands.commit(change);
      forget(prefixes);
    },

    /** One project of an organization (never its default). */
    async project(req: Request, organizationId: string, projectId: string): Promise<void> {
      const change = {
        type: 'accounts.project.deleted' as const, key: organizationKey(organizationId),
        payload: { organization_id: organizationId, project_id: projectId },
        meta: { requestId: req.id, organizationId, projectId, aggregateId: organizationKey(organizationId) },
      };
      orThrow(await commands.decideEarly(change));
      const prefixes = (await listApiKeys(pool, projectId)).map((k) => k.prefix);
      await shredKeysOfOwners(pool, [projectId]);
      await commands.commit(change);
      forget(prefixes);
    },

    /** A user with the organizations they own; answers those organizations' ids. */
    async user(req: Request, user: { id: string; email: string }): Promise<string[]> {
      const organizations = await organizationsOwnedBy(pool, user.id);
      const prefixes = (await Promise.all(organizations.map((o) => apiKeyPrefixesOfOrganization(pool, o)))).flat();
      await shredKeysOfOwners(pool, [...organizations, ...await projectsOfOrganizations(pool, organizations)]);
      await commands.commit({ type: 'accounts.user.deleted', key: userKey(user.email), payload: { user_id: user.id, email: user.email }, meta: { requestId: req.id } });
      forget(prefixes);
      return organizations;
    },
  };
}
export type AccountRemovals = ReturnType<typeof accountRemovals>;
