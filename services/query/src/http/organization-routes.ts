// GET /organizations/ (the caller's organizations), GET /organizations/{id} (members only: anyone
// else, and an unknown id alike, gets 403 — nobody learns which ids exist) and GET
// /organizations/providers/ (the caller's organization's SSO providers, never their client secrets).
import { defaultWorkspaceOf, listProviders, memberOrganizations, memberRole, readOrganization } from '@llm/account-model';
import { organizationView, providerView } from '@llm/contracts';
import { AppError } from '@llm/errors';
import type { Handlers, Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';

const notAMember = (): AppError => new AppError({ code: 'not_a_member', kind: 'forbidden', message: 'Not a member of this organization.' });

export function organizationRoutes(deps: { pool: Pool }, guards: Guards<'member' | 'providers'>): Handlers {
  const { pool } = deps;
  return {
    'organizations.list': [...guards.member, async (req, res) => {
      // compat §3.1's list shape; absent values are null, never the text "None".
      const orgs = await memberOrganizations(pool, req.scope.userId);
      res.json(orgs.map((o) => ({
        id: o.id, slug: o.slug, name: o.name, description: o.description, flags: o.flags, tags: null, meta: null,
        owner_id: o.owner_id, members: [], invitations: [], workspaces: o.workspaces,
      })));
    }],
    'organizations.fetch': [...guards.member, async (req, res) => {
      const org = await readOrganization(pool, String(req.params.organization_id ?? ''));
      if (!org || await memberRole(pool, org.id, req.scope.userId) === undefined) throw notAMember();
      const workspace = await defaultWorkspaceOf(pool, org.id);
      res.json({ ...organizationView(org), workspaces: workspace ? [workspace] : [], default_workspace: workspace ? { id: workspace } : null });
    }],
    'organizations.providers.list': [...guards.providers, async (req, res) => {
      res.json((await listProviders(pool, req.scope.organizationId)).map(providerView));
    }],
  };
}
