// SSO sign-in over OIDC (reference §3.4), in three hops:
//   GET /auth/sso/start/{org}/{provider}     → 302 to the identity provider (PKCE, state, nonce kept
//                                               in a signed, httpOnly state cookie)
//   GET /auth/sso/callback/{org}/{provider}  → the redirect URI registered at the provider: checks
//                                               the provider, relays to the session callback
//   GET /auth/callback/sso:{org}:{provider}  → exchanges the code, verifies the ID token, creates or
//                                               links the user (accounts.identity.signed_in), sets
//                                               the session cookie, redirects to the frontend.
// Every call to the provider goes through the guarded outbound client.
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { ssoCallbackPath, ssoPath, ssoStartQuery } from '@llm/contracts';
import { invalid, type AppError } from '@llm/errors';
import { validate, type Handlers, type Guards } from '@llm/http';
import { finishSignIn, startSignIn, type FetchLike, type SecretValue, type VerifiedClaims } from '@llm/oidc';
import type { Pool } from '@llm/postgres';
import { MAX_SESSION_IDENTITIES, isIdentity, mergeIdentities, ssoIdentity, type SessionCodec, type SsoStateCodec } from '@llm/web-session';
import { decideSsoSignIn, domainOwner, findUserByEmail, userByIdentity, userIdentities, userKey, refuse } from '@llm/account-model';
import { orThrow, type AccountCommands } from '../adapters/account-commands.ts';
import { findSsoTarget, type SsoTarget } from '../adapters/sso-store.ts';

export interface SsoDeps {
  commands: AccountCommands;
  pool: Pool;
  sessions: SessionCodec;
  ssoState: SsoStateCodec;
  /** Opens a provider's sealed client secret. */
  openSecret: (organizationId: string, providerId: string, sealed: string) => Promise<SecretValue>;
  /** `fetch` through the outbound guard. */
  fetch: FetchLike;
  /** Permit http:// identity providers (OUTBOUND_ALLOW_INSECURE_HTTP; development and tests). */
  allowInsecure: boolean;
  /** Our public URL (PUBLIC_BASE_URL); unset = taken from the request (development). */
  publicBaseUrl?: string | undefined;
  /** Where the browser lands after sign-in (AUTH_FRONTEND_URL) + the sign-in's return path. */
  frontendUrl?: string | undefined;
}

type ActiveTarget = SsoTarget & { provider: NonNullable<SsoTarget['provider']> };

export function ssoRoutes(deps: SsoDeps, _guards: Guards<never>): Handlers {
  const base = (req: Request): string => deps.publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  const redirectUri = (req: Request, org: string, provider: string): string =>
    `${base(req)}/auth/sso/callback/${encodeURIComponent(org)}/${encodeURIComponent(provider)}`;

  /** The organization and its active provider, or the reference's 404/400. */
  async function activeTarget(org: string, provider: string): Promise<ActiveTarget> {
    const t = await findSsoTarget(deps.pool, org, provider);
    if (!t) throw refuse('organization_not_found', `Organization '${org}' not found`);
    if (!t.provider) throw refuse('provider_not_found', `SSO provider '${provider}' not found for organization '${org}'`);
    if (!t.provider.isActive) throw invalid('provider_inactive', `SSO provider '${provider}' is not active`);
    // Moving a provider to another issuer or endpoint drops its client secret until a new one is set.
    if (t.provider.clientSecretSealed === '') {
      throw invalid('provider_secret_missing', `SSO provider '${provider}' has no client secret; set settings.client_secret to use it`);
    }
    return t as ActiveTarget;
  }

  const client = (req: Request, t: ActiveTarget) => ({
    issuer: t.provider.issuerUrl, clientId: t.provider.clientId, redirectUri: redirectUri(req, t.organization.slug, t.provider.slug),
    fetch: deps.fetch, allowInsecure: deps.allowInsecure,
  });

  /** Creates or links the user of these claims; retries once when a concurrent sign-in created them. */
  async function signIn(req: Request, t: ActiveTarget, claims: VerifiedClaims): Promise<{ id: string; email: string }> {
    const method = ssoIdentity(t.organization.slug, t.provider.slug);
    if (!claims.email) throw invalid('sso_email_missing', 'The identity provider did not share an e-mail address.');
    if (!claims.email_verified) throw invalid('sso_email_unverified', 'The identity provider has not verified this e-mail address.');
    const domain = claims.email.slice(claims.email.lastIndexOf('@') + 1).toLowerCase();
    const owner = await domainOwner(deps.pool, domain);
    const autoJoin = t.organization.flags.auto_join === true && owner === t.organization.id;
    const email = claims.email;
    // A concurrent sign-in that created the user meanwhile (user_exists): look again, and link.
    // Outside the caller's scope (a sign-in has none yet): the metadata names the organization and the user.
    return deps.commands.runAtVersion({ requestId: req.id }, { on: ['user_exists'], maxAttempts: 2 }, async () => {
      // The provider's subject at its issuer decides first: it stays with the user it was linked to.
      const linked = await userByIdentity(deps.pool, method, claims.issuer, claims.sub);
      const byEmail = linked ? undefined : await findUserByEmail(deps.pool, email);
      // A provider signs in only the people of its organization's domains (the user aggregate's rule).
      orThrow(decideSsoSignIn({ domain, organizationId: t.organization.id, domainOwner: owner, linked: linked !== undefined, emailTaken: byEmail !== undefined }));
      const known = linked ?? byEmail;
      const user = known ?? { id: randomUUID(), email };
      const write = {
        type: 'accounts.identity.signed_in' as const, key: userKey(user.email),
        payload: {
          user_id: user.id, email: user.email, name: claims.name ?? '', create_user: known === undefined, method, subject: claims.sub,
          issuer: claims.issuer, auto_join_organization_id: autoJoin ? t.organization.id : '',
        },
        meta: { organizationId: t.organization.id, aggregateId: `user:${user.id}`, actorId: user.id },
      };
      return { write, value: user };
    });
  }

  const stateRefused = (): AppError => invalid('sso_state_invalid', 'This sign-in expired or was started in another browser; start it again.');

  return {
    'auth.sso.start': async (req, res) => {
      const { organization_slug: org, provider_slug: provider } = validate(ssoPath, req.params, 'path');
      const { return_to: returnTo } = validate(ssoStartQuery, req.query, 'query');
      const t = await activeTarget(org, provider);
      const started = await startSignIn({ ...client(req, t), scopes: t.provider.scopes });
      const cookie = deps.ssoState.issue({ ...started.checks, organization_slug: org, provider_slug: provider, return_to: returnTo });
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Set-Cookie', cookie.setCookie);
      res.redirect(302, started.url);
    },

    'auth.sso.callback': async (req, res) => {
      const { organization_slug: org, provider_slug: provider } = validate(ssoPath, req.params, 'path');
      await activeTarget(org, provider);
      const q = req.originalUrl.indexOf('?');
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, `/auth/callback/${ssoIdentity(org, provider)}${q >= 0 ? req.originalUrl.slice(q) : ''}`);
    },

    'auth.callback': async (req, res) => {
      const { third_party_id: target } = validate(ssoCallbackPath, req.params, 'path');
      res.setHeader('Cache-Control', 'no-store');
      // The state cookie is good for one attempt, whatever its outcome.
      res.setHeader('Set-Cookie', deps.ssoState.clearCookie());
      const state = deps.ssoState.fromCookieHeader(req.headers.cookie);
      if (!state.ok) throw stateRefused();
      if (state.value.organization_slug !== target.organization_slug || state.value.provider_slug !== target.provider_slug) throw stateRefused();
      const t = await activeTarget(target.organization_slug, target.provider_slug);
      const claims = await finishSignIn({
        ...client(req, t), clientSecret: await deps.openSecret(t.organization.id, t.provider.id, t.provider.clientSecretSealed), callbackUrl: req.originalUrl,
        expected: { state: state.value.state, nonce: state.value.nonce, code_verifier: state.value.code_verifier },
      });
      const user = await signIn(req, t, claims);
      const method = ssoIdentity(t.organization.slug, t.provider.slug);
      // Identities stored by other means may not fit the session grammar; the session keeps those that do.
      const everUsed = (await userIdentities(deps.pool, user.id)).filter(isIdentity).slice(0, MAX_SESSION_IDENTITIES);
      // A sign-in in a browser that already holds this user's session steps that session up.
      const current = deps.sessions.fromCookieHeader(req.headers.cookie);
      const issued = current.ok && current.value.user_id === user.id
        ? deps.sessions.reissue(current.value, { identities: mergeIdentities(current.value.identities, [method]), user_identities: everUsed })
        : deps.sessions.issue({ user_id: user.id, email: user.email, identities: [method], user_identities: everUsed });
      res.append('Set-Cookie', issued.setCookie);
      res.redirect(302, `${deps.frontendUrl ?? ''}${state.value.return_to}`);
    },
  };
}
