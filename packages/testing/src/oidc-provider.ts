// A real OpenID provider on loopback for tests: `oidc-provider` with one (or more) confidential
// clients that must use PKCE, test accounts with passwords, and its own plain login and consent
// pages (the library's development pages accept any login and warn on every start). Tests drive it
// like a browser would: follow the redirects, fill in the login form, press Allow or Deny.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type InteractionDetails } from 'oidc-provider';
import { createTestBrowser, type FollowResult, type TestBrowser } from './test-browser.ts';

export interface TestOidcAccount {
  sub: string;
  password: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestOidcClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post';
}

export interface TestOidcProviderOptions {
  /** Default: one client `test-client` with a random secret, redirecting to `redirectUris`. */
  clients?: TestOidcClient[];
  /** Redirect URIs of the default client. Default: `http://127.0.0.1:9/callback` (never contacted). */
  redirectUris?: string[];
  /** Default: one account `alice` with a random password and a verified email. */
  accounts?: TestOidcAccount[];
}

export interface SignInOptions {
  /** Default: the first account's sub and password. */
  login?: string;
  password?: string;
  /** What to press on the consent page. Default `allow`. */
  consent?: 'allow' | 'deny';
  /** Reuse a browser (its cookies); default a fresh one per sign-in. */
  browser?: TestBrowser;
}

export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>` */
  issuer: string;
  /** The first client and account, for the common single-client test. */
  client: TestOidcClient;
  account: TestOidcAccount;
  /**
   * Plays the browser from the authorization URL until the provider redirects away from itself, and
   * returns that URL (the relying party's callback with `code`/`state`, or `error`) without
   * requesting it. Throws when the walk ends on one of the provider's own pages (e.g. a refused
   * password), with that page's text.
   */
  signIn(authorizationUrl: string | URL, options?: SignInOptions): Promise<URL>;
  close(): Promise<void>;
}

const html = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${html(title)}</title></head><body><h1>${html(title)}</h1>${body}</body></html>`;
}

function loginPage(uid: string, error?: string): string {
  return page('Sign in', `${error ? `<p role="alert">${html(error)}</p>` : ''}
<form method="post" action="/interaction/${html(uid)}/login" autocomplete="off">
  <label>Login <input type="text" name="login" value="" required></label>
  <label>Password <input type="password" name="password" value="" required></label>
  <button type="submit" name="action" value="login">Sign in</button>
</form>`);
}

function consentPage(uid: string, details: InteractionDetails): string {
  const scopes = Array.isArray(details.prompt.details.missingOIDCScope) ? (details.prompt.details.missingOIDCScope as string[]) : [];
  return page('Authorize', `<p>${html(String(details.params.client_id ?? ''))} asks for: ${html(scopes.join(', '))}</p>
<form method="post" action="/interaction/${html(uid)}/confirm">
  <button type="submit" name="consent" value="allow">Allow</button>
  <button type="submit" name="consent" value="deny">Deny</button>
</form>`);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Error('form too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, body: string, type = 'text/html; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

export async function startTestOidcProvider(options: TestOidcProviderOptions = {}): Promise<TestOidcProvider> {
  const accounts = options.accounts ?? [
    { sub: 'alice', password: randomBytes(12).toString('base64url'), email: 'alice@example.com', email_verified: true, name: 'Alice Example' },
  ];
  const clients = options.clients ?? [
    { client_id: 'test-client', client_secret: randomBytes(24).toString('base64url'), redirect_uris: options.redirectUris ?? ['http://127.0.0.1:9/callback'] },
  ];
  const byId = new Map(accounts.map((a) => [a.sub, a]));

  let provider: Provider | undefined;
  let providerHandler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;

  // Our login and consent pages; everything else is the provider's.
  async function interaction(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    const m = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(login|confirm))?$/.exec(path);
    if (!m || !provider) return false;
    const [, uid = '', step] = m;
    const details = await provider.interactionDetails(req, res);
    if (req.method === 'GET' && !step) {
      if (details.prompt.name === 'login') send(res, 200, loginPage(uid));
      else if (details.prompt.name === 'consent') send(res, 200, consentPage(uid, details));
      else send(res, 501, page('Not implemented', html(details.prompt.name)));
      return true;
    }
    if (req.method !== 'POST') return false;
    const form = await readForm(req);
    if (step === 'login' && details.prompt.name === 'login') {
      const account = byId.get(form.get('login') ?? '');
      if (!account || account.password !== form.get('password')) {
        send(res, 200, loginPage(uid, 'Invalid login or password.'));
        return true;
      }
      await provider.interactionFinished(req, res, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
      return true;
    }
    if (step === 'confirm' && details.prompt.name === 'consent') {
      if (form.get('consent') !== 'allow') {
        await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'End-User denied consent' }, { mergeWithLastSubmission: false });
        return true;
      }
      const accountId = details.session?.accountId;
      const clientId = details.params.client_id;
      if (!accountId || !clientId) throw new Error('consent without a session or client');
      const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
      const missing = details.prompt.details;
      if (Array.isArray(missing.missingOIDCScope)) grant.addOIDCScope((missing.missingOIDCScope as string[]).join(' '));
      if (Array.isArray(missing.missingOIDCClaims)) grant.addOIDCClaims(missing.missingOIDCClaims as string[]);
      if (missing.missingResourceScopes && typeof missing.missingResourceScopes === 'object') {
        for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes as Record<string, string[]>)) grant.addResourceScope(indicator, scopes.join(' '));
      }
      await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
      return true;
    }
    send(res, 400, page('Unexpected step', html(`${step ?? ''} during ${details.prompt.name}`)));
    return true;
  }

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    interaction(req, res, path)
      .then((handled) => {
        if (!handled) providerHandler?.(req, res);
      })
      .catch((err: unknown) => {
        if (!res.headersSent) send(res, 400, page('Interaction failed', html(err instanceof Error ? err.message : String(err))));
        else res.end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  provider = new Provider(issuer, {
    clients: clients.map((c) => ({
      client_id: c.client_id,
      client_secret: c.client_secret,
      redirect_uris: c.redirect_uris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: c.token_endpoint_auth_method ?? 'client_secret_basic',
    })),
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    interactions: { url: (_ctx: unknown, i: { uid: string }) => `/interaction/${i.uid}` },
    findAccount: (_ctx: unknown, id: string) => {
      const account = byId.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          ...(account.email !== undefined && { email: account.email, email_verified: account.email_verified ?? false }),
          ...(account.name !== undefined && { name: account.name }),
        }),
      };
    },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    // JSON error pages: a failing test then shows the provider's reason, not an HTML blob.
    renderError: (ctx: { type: string; body: unknown }, out: Record<string, unknown>) => {
      ctx.type = 'json';
      ctx.body = out;
    },
  });
  providerHandler = provider.callback();

  const origin = new URL(issuer).origin;
  return {
    issuer,
    client: clients[0]!,
    account: accounts[0]!,
    async signIn(authorizationUrl, signInOptions = {}) {
      const browser = signInOptions.browser ?? createTestBrowser();
      const result: FollowResult = await browser.follow(authorizationUrl, {
        stopAt: (url) => url.origin !== origin,
        fill: {
          login: signInOptions.login ?? accounts[0]?.sub ?? '',
          password: signInOptions.password ?? accounts[0]?.password ?? '',
          consent: signInOptions.consent ?? 'allow',
        },
      });
      if (result.url.origin === origin) {
        throw new Error(`sign-in stopped at ${result.url.pathname} (${result.response.status}): ${result.body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300)}`);
      }
      return result.url;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export { createTestBrowser, parseForm } from './test-browser.ts';
export type { TestBrowser, FollowOptions, FollowResult, HtmlForm } from './test-browser.ts';
