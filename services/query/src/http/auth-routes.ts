// Session-based reads (reference §3.1, §3.2): which sign-in methods to offer for an e-mail, whether
// the current session satisfies an organization's auth policy, and the session itself. The policy
// decisions are pure functions of @llm/auth-policy; this file only gathers their facts.
import { accessQuery, discoverRequest } from '@llm/contracts';
import { invalid, notFound, unauthenticated } from '@llm/errors';
import { validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { isUuid, domainOwner, memberRole, organizationPolicies, userEmail, userIdentities, userOrganizations } from '@llm/account-model';
import type { SessionReader } from '@llm/auth';
import { discoverMethods, evaluateAccess, type DeploymentMethods } from '@llm/auth-policy';

export interface AuthRouteDeps {
  pool: Pool;
  readSession: SessionReader;
  deployment: DeploymentMethods;
}


export function authRoutes(deps: AuthRouteDeps, _guards: Guards<never>): Handlers {
  return {
    'auth.discover': async (req, res) => {
      const { email } = validate(discoverRequest, req.body);
      const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
      const [user, owner] = await Promise.all([userOrganizations(deps.pool, email), domainOwner(deps.pool, domain)]);
      const ids = [...new Set([...user.organizationIds, ...(owner ? [owner] : [])])];
      const orgs = await organizationPolicies(deps.pool, ids);
      res.status(200).json(discoverMethods({
        exists: user.exists,
        candidates: orgs.map((o) => ({ flags: o.flags, ownsEmailDomain: o.id === owner, activeProviders: o.activeProviders })),
        deployment: deps.deployment,
      }));
    },

    'auth.access': async (req, res) => {
      const session = await deps.readSession(req);
      res.setHeader('Cache-Control', 'no-store');
      const { organization_id: orgId } = validate(accessQuery, req.query, 'query');
      if (!isUuid(orgId)) throw invalid('invalid_organization_id', 'Invalid organization_id');
      const email = session.email ?? (await userEmail(deps.pool, session.user_id));
      if (!email) throw unauthenticated();
      const [role, [org], identities] = await Promise.all([
        memberRole(deps.pool, orgId, session.user_id), organizationPolicies(deps.pool, [orgId]), userIdentities(deps.pool, session.user_id),
      ]);
      // A non-member cannot tell an organization exists, nor read its policy.
      if (!org || role === undefined) throw notFound('organization_not_found', 'Organization not found');
      const decision = evaluateAccess({
        organization: { slug: org.slug, flags: org.flags }, isOwner: role === 'owner' || org.ownerId === session.user_id, email,
        sessionIdentities: session.identities, userIdentities: identities, activeProviders: org.activeProviders,
        verifiedDomains: org.verifiedDomains, deployment: deps.deployment,
      });
      if (!decision.ok) { res.status(403).json({ detail: decision.denial }); return; }
      res.status(200).json({ ok: true });
    },

    'auth.session': async (req, res) => {
      const session = await deps.readSession(req);
      res.setHeader('Cache-Control', 'no-store');
      res.status(200).json({
        user_id: session.user_id, email: session.email ?? null, session_identities: session.identities,
        user_identities: await userIdentities(deps.pool, session.user_id),
        issued_at: new Date(session.issued_at * 1000).toISOString(), expires_at: new Date(session.expires_at * 1000).toISOString(),
      });
    },
  };
}
