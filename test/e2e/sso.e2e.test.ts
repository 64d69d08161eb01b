// SSO over OIDC end to end, browser-less: a real OpenID provider on loopback (oidc-provider), the
// sign-in walked hop by hop with a cookie-keeping test browser, the session cookie it ends with,
// and everything that reads that session: identities, sign-out, discover and the access policy.
// Identity safety: a provider pointed at another issuer keeps neither its secret nor its links.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signSessionAssertion } from '@llm/web-session';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { startTxtDnsServer, type TxtDnsServer } from '@llm/testing/dns-server';
import { startTestOidcProvider, type TestOidcProvider } from '@llm/testing/oidc-provider';
import { createTestBrowser, type TestBrowser } from '@llm/testing/test-browser';

const letters = (n: number): string => Array.from(randomBytes(n), (b) => String.fromCharCode(97 + (b % 26))).join('');

interface Org { slug: string; organizationId: string; userId: string; email: string; auth: { Authorization: string } }

let t: TestApp;
let dns: TxtDnsServer;
let idp: TestOidcProvider;
let acme: Org;
let other: Org;
let provider: { id: string; slug: string };
const domain = `${letters(8)}.example.org`;
const employee = { sub: `emp-${letters(6)}`, password: letters(16), email: `kim@${domain}`, email_verified: true, name: 'Kim Employee' };
const outsider = { sub: `out-${letters(6)}`, password: letters(16), email: `lee@${letters(6)}.example.net`, email_verified: true, name: 'Lee Outsider' };
const unverified = { sub: `unv-${letters(6)}`, password: letters(16), email: `pat@${letters(6)}.example.net`, email_verified: false };
const otherDomain = `${letters(8)}.example.org`;
// Accounts a provider should not be able to vouch for: another organization's verified domain, and
// an existing user outside this organization's domains.
const squatter = { sub: `sq-${letters(6)}`, password: letters(16), email: `boss@${otherDomain}`, email_verified: true };
const impostor = { sub: `imp-${letters(6)}`, password: letters(16), email: '', email_verified: true };
// People outside the organization's verified domains, linked through providers that later move.
const traveller = { sub: `trv-${letters(6)}`, password: letters(16), email: `ray@${letters(6)}.example.net`, email_verified: true };
const wanderer = { sub: `wdr-${letters(6)}`, password: letters(16), email: `sam@${letters(6)}.example.net`, email_verified: true };
const movingSlug = `moving-${letters(6)}`;
const phoenixSlug = `phoenix-${letters(6)}`;
// The trusted session service's shared secret (SESSION_ASSERTION_SECRETS).
const serviceSecret = randomBytes(32).toString('base64url');

async function createOrg(): Promise<Org> {
  const email = `${letters(10)}@owner.example.com`;
  const slug = `org-${letters(10)}`;
  const r = await fetch(`${t.baseUrl}/admin/simple/accounts/`, {
    method: 'POST', headers: { Authorization: `Access ${t.adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ accounts: { user: { user: { email }, organization: { name: `Org ${slug}`, slug } } } }),
  });
  expect(r.status).toBe(200);
  const acc = ((await r.json()) as { accounts: { user: any } }).accounts.user;
  return { slug, organizationId: acc.organizations.org.id, userId: acc.user.id, email, auth: { Authorization: `ApiKey ${acc.api_keys.key}` } };
}

async function call(method: string, path: string, auth: Record<string, string>, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}), redirect: 'manual' });
  const text = await r.text();
  return { status: r.status, body: text && r.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text || undefined, headers: r.headers };
}

/** The session cookie of a browser as a Cookie header. */
const cookieOf = (b: TestBrowser): { Cookie: string } =>
  ({ Cookie: [...b.cookiesFor(t.baseUrl)].map(([k, v]) => `${k}=${v}`).join('; ') });

/** The session id in the session cookie's payload (signed, not encrypted): what a session service binds its assertions to. */
function sidOf(b: TestBrowser): string {
  const token = [...b.cookiesFor(t.baseUrl)].find(([k]) => k.endsWith('llm_session'))![1];
  return (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sid: string }).sid;
}

/** Walks a full sign-in through `slug` at `op` and returns the browser holding the session. */
async function signInVia(op: TestOidcProvider, slug: string, account: { sub: string; password: string }, browser = createTestBrowser(), returnTo = '/app'): Promise<TestBrowser> {
  const started = await browser.follow(`${t.baseUrl}/auth/sso/start/${acme.slug}/${slug}?return_to=${encodeURIComponent(returnTo)}`, {
    stopAt: (u) => u.origin === op.issuer,
  });
  const back = await op.signIn(started.url, { login: account.sub, password: account.password });
  const landed = await browser.follow(back, { stopAt: (u) => u.origin === t.baseUrl && u.pathname === returnTo });
  expect(landed.url.pathname).toBe(returnTo);
  return browser;
}

/** Walks a full sign-in that this server refuses, and returns where it ended. */
async function refusedSignIn(op: TestOidcProvider, slug: string, account: { sub: string; password: string }): Promise<{ status: number; detail: unknown; browser: TestBrowser }> {
  const browser = createTestBrowser();
  const started = await browser.follow(`${t.baseUrl}/auth/sso/start/${acme.slug}/${slug}`, { stopAt: (u) => u.origin === op.issuer });
  const back = await op.signIn(started.url, { login: account.sub, password: account.password });
  const landed = await browser.follow(back, { stopAt: (u) => u.pathname === '/' });
  // A sign-in that went through lands on the frontend page instead of an error body.
  const detail = landed.response.headers.get('content-type')?.includes('json') ? (JSON.parse(landed.body) as { detail: unknown }).detail : landed.url.pathname;
  return { status: landed.response.status, detail, browser };
}

const signIn = (account: { sub: string; password: string }, browser = createTestBrowser(), returnTo = '/app'): Promise<TestBrowser> =>
  signInVia(idp, provider.slug, account, browser, returnTo);

interface RecordedRequest { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }

/**
 * An issuer an organization admin controls: a valid discovery document and a token endpoint that
 * records what it is sent (and refuses every code). Enough to see which client secret we send there.
 */
async function startRecordingIssuer(): Promise<{ issuer: string; requests: RecordedRequest[]; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      requests.push({ method: req.method ?? '', path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const json = (status: number, body: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
      if (path === '/.well-known/openid-configuration') {
        json(200, {
          issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, userinfo_endpoint: `${issuer}/userinfo`,
          jwks_uri: `${issuer}/jwks`, response_types_supported: ['code'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'],
        });
      } else if (path === '/token') json(400, { error: 'invalid_grant' });
      else if (path === '/jwks') json(200, { keys: [] });
      else json(404, { error: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, requests, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

/** Everything a recorded request carried, with HTTP Basic credentials decoded. */
function carried(r: RecordedRequest): string {
  const auth = String(r.headers.authorization ?? '');
  const basic = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
  return [r.path, JSON.stringify(r.headers), r.body, decodeURIComponent(r.body.replace(/\+/g, ' ')), basic, decodeURIComponent(basic)].join('\n');
}

beforeAll(async () => {
  dns = await startTxtDnsServer();
  t = await startTestApp({
    DNS_SERVERS: `127.0.0.1:${dns.port}`, OUTBOUND_ALLOW_HOSTS: '127.0.0.1', OUTBOUND_ALLOW_INSECURE_HTTP: 'true', AUTH_EMAIL_METHOD: 'password',
    SESSION_ASSERTION_SECRETS: serviceSecret,
  });
  [acme, other] = await Promise.all([createOrg(), createOrg()]);
  const slug = `okta-${letters(6)}`;
  impostor.email = other.email;
  idp = await startTestOidcProvider({
    redirectUris: [slug, movingSlug, phoenixSlug].map((s) => `${t.baseUrl}/auth/sso/callback/${acme.slug}/${s}`),
    accounts: [employee, outsider, unverified, squatter, impostor, traveller, wanderer],
  });
  const theirs = await call('POST', '/organizations/domains/', other.auth, { domain: otherDomain });
  dns.publish(theirs.body.dns.name, [theirs.body.dns.value]);
  expect((await call('POST', '/organizations/domains/verify', other.auth, { domain_id: theirs.body.id })).status).toBe(200);
  // The organization owns the domain (verified through DNS) and lets its people in by SSO.
  const claimed = await call('POST', '/organizations/domains/', acme.auth, { domain });
  dns.publish(claimed.body.dns.name, [claimed.body.dns.value]);
  expect((await call('POST', '/organizations/domains/verify', acme.auth, { domain_id: claimed.body.id })).status).toBe(200);
  expect((await call('PATCH', `/organizations/${acme.organizationId}`, acme.auth, { flags: { allow_email: true } })).status).toBe(200);
  const created = await call('POST', '/organizations/providers/', acme.auth, {
    slug, name: 'Okta', settings: { issuer_url: idp.issuer, client_id: idp.client.client_id, client_secret: idp.client.client_secret },
  });
  expect(created.status).toBe(200);
  provider = { id: created.body.id, slug };
  const tested = await call('POST', `/organizations/providers/${provider.id}/test`, acme.auth);
  expect(tested.body.flags).toMatchObject({ is_valid: true, is_active: true });
  expect((await call('PATCH', `/organizations/${acme.organizationId}`, acme.auth, { flags: { allow_email: true, allow_sso: true, auto_join: true } })).status).toBe(200);
});
afterAll(async () => { await t?.stop(); await idp?.close(); await dns?.close().catch(() => undefined); });

describe('SSO sign-in', () => {
  it('when an employee signs in, then the user is created, joins by verified domain, and the session carries the SSO identity', async () => {
    const browser = await signIn(employee);
    const session = await call('GET', '/auth/session', cookieOf(browser));
    expect(session.status).toBe(200);
    expect(session.headers.get('cache-control')).toBe('no-store');
    const identity = `sso:${acme.slug}:${provider.slug}`;
    expect(session.body).toMatchObject({ email: employee.email, session_identities: [identity], user_identities: [identity] });
    // auto_join: the employee is a member (viewer) of the organization, so the access check runs.
    const access = await call('GET', `/auth/access?organization_id=${acme.organizationId}`, cookieOf(browser));
    expect(access).toMatchObject({ status: 200, body: { ok: true } });

    // Signing in again links to the same user.
    const again = await signIn(employee);
    expect((await call('GET', '/auth/session', cookieOf(again))).body.user_id).toBe(session.body.user_id);
  });

  it('when a user outside the verified domain signs in, then they get a session but no membership', async () => {
    const browser = await signIn(outsider);
    expect((await call('GET', '/auth/session', cookieOf(browser))).body.email).toBe(outsider.email);
    expect((await call('GET', `/auth/access?organization_id=${acme.organizationId}`, cookieOf(browser))).status).toBe(404);
    // Without any membership there is no project to act in.
    expect((await call('GET', '/organizations/domains/', cookieOf(browser))).status).toBe(401);
    expect((await call('GET', `/organizations/domains/?project_id=${acme.organizationId}`, cookieOf(browser))).status).toBe(401);
  });

  it('when the provider has not verified the e-mail, then no user is created', async () => {
    const browser = createTestBrowser();
    const started = await browser.follow(`${t.baseUrl}/auth/sso/start/${acme.slug}/${provider.slug}`, { stopAt: (u) => u.origin === idp.issuer });
    const back = await idp.signIn(started.url, { login: unverified.sub, password: unverified.password });
    const landed = await browser.follow(back, { stopAt: (u) => u.pathname === '/' });
    expect(landed.response.status).toBe(400);
    expect(JSON.parse(landed.body).detail).toMatch(/not verified this e-mail/);
    expect((await call('POST', '/auth/discover', {}, { email: unverified.email })).body.exists).toBe(false);
  });

  it("when the provider vouches for another organization's domain or an existing outside account, then it is refused", async () => {
    for (const account of [squatter, impostor]) {
      const browser = createTestBrowser();
      const started = await browser.follow(`${t.baseUrl}/auth/sso/start/${acme.slug}/${provider.slug}`, { stopAt: (u) => u.origin === idp.issuer });
      const back = await idp.signIn(started.url, { login: account.sub, password: account.password });
      const landed = await browser.follow(back, { stopAt: (u) => u.pathname === '/' });
      expect(landed.response.status).toBe(403);
      expect(JSON.parse(landed.body).detail).toMatch(/^This identity provider cannot sign in users of /);
    }
    expect((await call('POST', '/auth/discover', {}, { email: squatter.email })).body.exists).toBe(false);
  });

  it('when the callback state is forged, the state cookie is missing, or a code is replayed, then the sign-in is refused', async () => {
    const browser = createTestBrowser();
    const started = await browser.follow(`${t.baseUrl}/auth/sso/start/${acme.slug}/${provider.slug}`, { stopAt: (u) => u.origin === idp.issuer });
    const back = await idp.signIn(started.url, { login: employee.sub, password: employee.password });
    const relay = `/auth/callback/sso:${acme.slug}:${provider.slug}${back.search}`;
    const stateCookie = cookieOf(browser);
    // No state cookie (another browser): refused before the code is used.
    expect((await call('GET', relay, {})).status).toBe(400);
    // A forged state: refused.
    const forged = new URL(back);
    forged.searchParams.set('state', letters(43));
    expect((await call('GET', `/auth/callback/sso:${acme.slug}:${provider.slug}${forged.search}`, stateCookie)).status).toBe(401);
    // The genuine callback works once; the same code again is refused by the provider.
    const first = await call('GET', relay, stateCookie);
    expect(first.status).toBe(302);
    expect(first.headers.getSetCookie().some((c) => /llm_session=[^;]+/.test(c))).toBe(true);
    const replay = await call('GET', relay, stateCookie);
    expect(replay.status).toBe(401);
    expect(replay.headers.getSetCookie().some((c) => /llm_session=[^;]+;/.test(c) && !/Max-Age=0|Expires=Thu, 01 Jan 1970/.test(c))).toBe(false);
  });

  it('when the organization or provider is unknown or inactive, then the callback says so', async () => {
    expect((await call('GET', `/auth/sso/callback/${letters(12)}/${provider.slug}?code=x&state=y`, {})).status).toBe(404);
    const unknown = await call('GET', `/auth/sso/callback/${acme.slug}/${letters(12)}?code=x&state=y`, {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/SSO provider '.*' not found for organization/);
    const ok = await call('GET', `/auth/sso/callback/${acme.slug}/${provider.slug}?code=abc&state=def`, {});
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe(`/auth/callback/sso:${acme.slug}:${provider.slug}?code=abc&state=def`);
    expect((await call('GET', `/auth/sso/start/${acme.slug}/${provider.slug}?return_to=https://evil.example`, {})).status).toBe(422);
    expect((await call('GET', `/auth/callback/not-a-third-party-id?code=x`, {})).status).toBe(422);
  });
});

describe('sessions', () => {
  it('when identities are merged, then only verified ones are added: by the trusted session service\'s assertion, SSO only by a real sign-in', async () => {
    const browser = await signIn(employee);
    const identity = `sso:${acme.slug}:${provider.slug}`;
    const asked = ['email:otp', identity, 'email:otp'];
    // Asking is not enough: nobody verified an e-mail sign-in in this session.
    const unproven = await call('PATCH', '/auth/session/identities', cookieOf(browser), { session_identities: asked });
    expect(unproven).toMatchObject({ status: 403, body: { unverified_identities: ['email:otp'] } });
    // Nor is an assertion made for another session, with another secret, or for other identities.
    const elsewhere = await signIn(employee);
    for (const assertion of [
      signSessionAssertion(serviceSecret, { sid: sidOf(elsewhere), identities: asked }),
      signSessionAssertion(randomBytes(32).toString('base64url'), { sid: sidOf(browser), identities: asked }),
      signSessionAssertion(serviceSecret, { sid: sidOf(browser), identities: ['email:otp'] }),
      'garbage',
    ]) {
      expect((await call('PATCH', '/auth/session/identities', { ...cookieOf(browser), 'X-Session-Assertion': assertion }, { session_identities: asked })).status).toBe(403);
    }
    // Repeating what the session holds needs no proof.
    expect((await call('PATCH', '/auth/session/identities', cookieOf(browser), { session_identities: [identity] })).body).toEqual({ session_identities: [identity], previous: [identity] });
    // The trusted session service vouches for this session's e-mail sign-in.
    const vouched = { ...cookieOf(browser), 'X-Session-Assertion': signSessionAssertion(serviceSecret, { sid: sidOf(browser), identities: asked }) };
    const merged = await call('PATCH', '/auth/session/identities', vouched, { session_identities: asked });
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual({ session_identities: [identity, 'email:otp'], previous: [identity] });
    const reissued = merged.headers.getSetCookie().find((c) => c.includes('llm_session='))!;
    const cookie = { Cookie: reissued.split(';')[0]! };
    expect((await call('GET', '/auth/session', cookie)).body.session_identities).toEqual([identity, 'email:otp']);
    const bad = await call('PATCH', '/auth/session/identities', cookie, { session_identities: ['email:*', 'nonsense'] });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([['body', 'session_identities', 0], ['body', 'session_identities', 1]]);
    // An SSO identity comes only from signing in through that provider, whoever vouches for it.
    const ssoClaim = [`sso:${other.slug}:okta`];
    const claimed = await call('PATCH', '/auth/session/identities', { ...cookie, 'X-Session-Assertion': signSessionAssertion(serviceSecret, { sid: sidOf(browser), identities: ssoClaim }) }, { session_identities: ssoClaim });
    expect(claimed).toMatchObject({ status: 403, body: { unverified_identities: ssoClaim } });
    expect((await call('PATCH', '/auth/session/identities', {}, { session_identities: ['email:otp'] })).status).toBe(401);
  });

  it('when a session cookie is tampered with, or signed out, then it is refused', async () => {
    const browser = await signIn(employee);
    const cookie = cookieOf(browser);
    expect((await call('GET', '/auth/session', cookie)).status).toBe(200);
    const [name, value] = cookie.Cookie.split(';').map((c) => c.trim()).find((c) => c.includes('llm_session='))!.split('=') as [string, string];
    const at = value.length - 2;
    const flipped = `${value.slice(0, at)}${value[at] === 'A' ? 'B' : 'A'}${value.slice(at + 1)}`;
    expect((await call('GET', '/auth/session', { Cookie: `${name}=${flipped}` })).status).toBe(401);
    expect((await call('GET', '/auth/session', {})).body).toEqual({ detail: 'Unauthorized' });
    const out = await call('POST', '/auth/signout', cookie);
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().some((c) => c.includes('llm_session=;') || /llm_session=[^;]*;.*Max-Age=0/.test(c))).toBe(true);
    // A copy of the cookie kept after sign-out no longer works, on any route.
    expect((await call('GET', '/auth/session', cookie)).status).toBe(401);
    expect((await call('GET', `/auth/access?organization_id=${acme.organizationId}`, cookie)).status).toBe(401);
  });
});

describe('discover and access policy', () => {
  it('when an e-mail belongs to a verified domain with an active provider, then only SSO is offered, without organization names', async () => {
    const r = await call('POST', '/auth/discover', {}, { email: `someone-new@${domain.toUpperCase()}` });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ exists: false, methods: { sso: { providers: [{ id: provider.id, slug: provider.slug, third_party_id: `sso:${acme.slug}:${provider.slug}` }] } } });
    expect(JSON.stringify(r.body)).not.toContain(`Org ${acme.slug}`);
    const elsewhere = await call('POST', '/auth/discover', {}, { email: `x@${letters(8)}.example.com` });
    expect(elsewhere.body).toEqual({ exists: false, methods: { 'email:password': true } });
    const owner = await call('POST', '/auth/discover', {}, { email: acme.email });
    expect(owner.body.exists).toBe(true);
    expect(owner.body.methods).toMatchObject({ 'email:password': true, sso: { providers: [{ slug: provider.slug }] } });
    expect((await call('POST', '/auth/discover', {}, { email: 'not-an-email' })).status).toBe(422);
  });

  it('when the session misses what the policy requires, then 403 with the denial body', async () => {
    const browser = await signIn(employee);
    const cookie = cookieOf(browser);
    // The session works on organization routes as an API key does, within the policy.
    const listed = await call('GET', '/organizations/domains/', cookie);
    expect(listed.status).toBe(200);
    expect(listed.body.map((d: { slug: string }) => d.slug)).toContain(domain);
    // Auto-joined members are viewers: they may read, not change who signs in, nor mint keys.
    const forbidden = 'You do not have access to perform this action. Please contact your organization admin.';
    expect(await call('POST', '/organizations/domains/', cookie, { domain: `${letters(8)}.example.org` })).toMatchObject({ status: 403, body: { detail: forbidden } });
    expect((await call('POST', '/keys', cookie, {})).status).toBe(403);
    expect((await call('GET', '/keys', cookie)).status).toBe(403);
    // Only e-mail sign-in allowed: an SSO session is denied as such.
    expect((await call('PATCH', `/organizations/${acme.organizationId}`, acme.auth, { flags: { allow_email: true, allow_sso: false, auto_join: true } })).status).toBe(200);
    const denied = await call('GET', `/auth/access?organization_id=${acme.organizationId}`, cookie);
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toMatchObject({
      error: 'AUTH_SSO_DENIED', message: 'SSO is denied for this organization', required_methods: ['email:*'],
      session_identities: [`sso:${acme.slug}:${provider.slug}`], current_domain: domain, allowed_domains: [],
    });
    const refused = await call('GET', '/organizations/domains/', cookie);
    expect(refused.status).toBe(403);
    expect(refused.body.detail.error).toBe('AUTH_SSO_DENIED');
    // SSO only, and only people of the verified domain: the employee's SSO session qualifies.
    expect((await call('PATCH', `/organizations/${acme.organizationId}`, acme.auth, { flags: { allow_email: false, allow_sso: true, auto_join: true, domains_only: true } })).status).toBe(200);
    expect((await call('GET', `/auth/access?organization_id=${acme.organizationId}`, cookie)).body).toEqual({ ok: true });
    // Bad input.
    expect((await call('GET', '/auth/access', cookie)).status).toBe(422);
    expect((await call('GET', '/auth/access?organization_id=nope', cookie))).toMatchObject({ status: 400, body: { detail: 'Invalid organization_id' } });
    expect((await call('GET', `/auth/access?organization_id=${other.organizationId}`, cookie)).status).toBe(404);
    expect((await call('GET', `/auth/access?organization_id=${acme.organizationId}`, {})).status).toBe(401);
    // Back to the setup of the other tests.
    expect((await call('PATCH', `/organizations/${acme.organizationId}`, acme.auth, { flags: { allow_email: true, allow_sso: true, auto_join: true, domains_only: false } })).status).toBe(200);
  });
});

describe('roles', () => {
  it('when an operator changes a member\'s role, then what the member may do changes at once', async () => {
    const browser = await signIn(employee);
    const cookie = cookieOf(browser);
    const me = (await call('GET', '/auth/session', cookie)).body.user_id as string;
    const admin = { Authorization: `Access ${t.adminToken}` };
    const setRole = (role: string) => call('POST', '/admin/simple/accounts/organizations/memberships/', admin, { organization_id: acme.organizationId, user: { id: me }, role });
    expect((await call('POST', '/keys', cookie, {})).status).toBe(403);
    expect(await setRole('developer')).toMatchObject({ status: 200, body: { membership: { user_id: me, role: 'developer' } } });
    const key = await call('POST', '/keys', cookie, { name: 'mine' });
    expect(key.status).toBe(200);
    expect(key.body.created_by).toBe(me);
    // A developer still may not change who signs in; an admin may.
    expect((await call('POST', '/organizations/domains/', cookie, { domain: `${letters(8)}.example.org` })).status).toBe(403);
    expect((await setRole('admin')).status).toBe(200);
    expect((await call('POST', '/organizations/domains/', cookie, { domain: `${letters(8)}.example.org` })).status).toBe(200);
    // Organization settings stay the owner's.
    expect(await call('PATCH', `/organizations/${acme.organizationId}`, cookie, { name: 'Taken over' })).toMatchObject({ status: 403, body: { detail: 'You do not have access to perform this action. Please contact your organization admin.' } });
    expect((await call('GET', `/organizations/${acme.organizationId}`, cookie)).body.name).toBe(`Org ${acme.slug}`);
    // The owner's role is not for changing, unknown users and roles are refused.
    expect((await call('POST', '/admin/simple/accounts/organizations/memberships/', admin, { organization_id: acme.organizationId, user: { id: acme.userId }, role: 'viewer' })).status).toBe(409);
    expect((await call('POST', '/admin/simple/accounts/organizations/memberships/', admin, { organization_id: acme.organizationId, user: { email: 'nobody@nowhere.example' }, role: 'viewer' })).status).toBe(404);
    expect((await setRole('root')).status).toBe(422);
    expect((await call('POST', '/admin/simple/accounts/organizations/memberships/', {}, { organization_id: acme.organizationId, user: { id: me }, role: 'viewer' })).status).toBe(401);
    // Removed: no project to act in, and the organization is not theirs to see.
    expect((await call('DELETE', '/admin/simple/accounts/organizations/memberships/', admin, { organization_id: acme.organizationId, user: { id: me } })).status).toBe(204);
    expect((await call('GET', '/organizations/domains/', cookie)).status).toBe(401);
    expect((await call('GET', `/auth/access?organization_id=${acme.organizationId}`, cookie)).status).toBe(404);
    // The API key the developer made acts for them: it stops working with the membership.
    expect((await call('POST', '/keys', { Authorization: `ApiKey ${key.body.key}` }, {})).status).toBe(401);
    expect((await call('GET', `/traces/${'ab'.repeat(16)}`, { Authorization: `ApiKey ${key.body.key}` })).status).toBe(401);
  });
});

describe('identity safety', () => {
  it('when a provider is re-pointed at another issuer, then its secret stays behind, its links go, and the same subject there is not the linked user', async () => {
    const created = await call('POST', '/organizations/providers/', acme.auth, {
      slug: movingSlug, settings: { issuer_url: idp.issuer, client_id: idp.client.client_id, client_secret: idp.client.client_secret },
    });
    expect(created.status).toBe(200);
    const path = `/organizations/providers/${created.body.id}`;
    expect((await call('POST', `${path}/test`, acme.auth)).body.flags.is_active).toBe(true);
    const identity = `sso:${acme.slug}:${movingSlug}`;
    const rays = cookieOf(await signInVia(idp, movingSlug, traveller));
    expect((await call('GET', '/auth/session', rays)).body.user_identities).toContain(identity);

    const rogue = await startRecordingIssuer();
    const idp2 = await startTestOidcProvider({
      redirectUris: [`${t.baseUrl}/auth/sso/callback/${acme.slug}/${movingSlug}`],
      accounts: [{ ...traveller, password: letters(16) }],
    });
    try {
      // The admin re-points the provider without a new secret: the stored one is dropped, and so are
      // the links made through the old issuer.
      const moved = await call('PATCH', path, acme.auth, { settings: { issuer_url: rogue.issuer } });
      expect(moved).toMatchObject({
        status: 200,
        body: { settings: { issuer_url: rogue.issuer, has_client_secret: false }, flags: { is_valid: false, is_active: false }, warnings: [{ code: 'client_secret_dropped' }] },
      });
      expect((await call('GET', '/auth/session', rays)).body.user_identities).not.toContain(identity);
      // Without a secret the provider cannot pass its test, nor start a sign-in: nothing reaches the new issuer.
      expect((await call('POST', `${path}/test`, acme.auth)).body.flags).toMatchObject({ is_valid: false, is_active: false });
      expect((await call('GET', `/auth/sso/start/${acme.slug}/${movingSlug}`, {})).status).toBe(400);
      expect(rogue.requests).toEqual([]);

      // With a new secret it works again, and the new token endpoint receives that one, never the old.
      const newSecret = randomBytes(24).toString('base64url');
      const rekeyed = await call('PATCH', path, acme.auth, { settings: { client_secret: newSecret } });
      expect(rekeyed.body.settings.has_client_secret).toBe(true);
      expect(rekeyed.body.warnings).toBeUndefined();
      expect((await call('POST', `${path}/test`, acme.auth)).body.flags.is_active).toBe(true);
      const browser = createTestBrowser();
      const started = await browser.follow(`${t.baseUrl}/auth/sso/start/${acme.slug}/${movingSlug}`, { stopAt: (u) => u.origin === rogue.issuer });
      const state = started.url.searchParams.get('state')!;
      const landed = await browser.follow(`${t.baseUrl}/auth/sso/callback/${acme.slug}/${movingSlug}?code=${letters(20)}&state=${state}`, { stopAt: (u) => u.pathname === '/' });
      expect(landed.response.status).toBe(401);
      const tokenRequests = rogue.requests.filter((r) => r.path === '/token');
      expect(tokenRequests).toHaveLength(1);
      expect(carried(tokenRequests[0]!)).toContain(`${idp.client.client_id}:${newSecret}`);
      for (const r of rogue.requests) expect(carried(r)).not.toContain(idp.client.client_secret);

      // Pointed at yet another issuer (with its client), the same subject there is not Ray: the
      // link is gone and the subject means nothing at another issuer; Ray's address is not of a
      // domain this organization verified, so the new issuer cannot vouch for it.
      expect((await call('PATCH', path, acme.auth, { settings: { issuer_url: idp2.issuer, client_id: idp2.client.client_id, client_secret: idp2.client.client_secret } })).body.settings.has_client_secret).toBe(true);
      expect((await call('POST', `${path}/test`, acme.auth)).body.flags.is_active).toBe(true);
      const refused = await refusedSignIn(idp2, movingSlug, { sub: traveller.sub, password: idp2.account.password });
      expect(refused.status).toBe(403);
      expect(refused.detail).toMatch(/^This identity provider cannot sign in users of /);
      expect([...refused.browser.cookiesFor(t.baseUrl).keys()].some((k) => k.endsWith('llm_session'))).toBe(false);
    } finally {
      await rogue.close();
      await idp2.close();
      await call('DELETE', path, acme.auth);
    }
  });

  it('when a provider is deleted and re-created under the same slug at another issuer, then the same subject there is not the user linked before', async () => {
    const first = await call('POST', '/organizations/providers/', acme.auth, {
      slug: phoenixSlug, settings: { issuer_url: idp.issuer, client_id: idp.client.client_id, client_secret: idp.client.client_secret },
    });
    expect((await call('POST', `/organizations/providers/${first.body.id}/test`, acme.auth)).body.flags.is_active).toBe(true);
    const sam = (await call('GET', '/auth/session', cookieOf(await signInVia(idp, phoenixSlug, wanderer)))).body;
    expect(sam.user_identities).toContain(`sso:${acme.slug}:${phoenixSlug}`);
    expect((await call('DELETE', `/organizations/providers/${first.body.id}`, acme.auth)).status).toBe(204);

    // Same slug, so the same identity string `sso:<org>:<slug>`, but another issuer with the same subject.
    const idp2 = await startTestOidcProvider({ redirectUris: [`${t.baseUrl}/auth/sso/callback/${acme.slug}/${phoenixSlug}`], accounts: [{ ...wanderer, password: letters(16) }] });
    const second = await call('POST', '/organizations/providers/', acme.auth, {
      slug: phoenixSlug, settings: { issuer_url: idp2.issuer, client_id: idp2.client.client_id, client_secret: idp2.client.client_secret },
    });
    try {
      expect((await call('POST', `/organizations/providers/${second.body.id}/test`, acme.auth)).body.flags.is_active).toBe(true);
      const refused = await refusedSignIn(idp2, phoenixSlug, { sub: wanderer.sub, password: idp2.account.password });
      expect(refused.status).toBe(403);
      expect(refused.detail).toMatch(/^This identity provider cannot sign in users of /);
    } finally {
      await idp2.close();
      await call('DELETE', `/organizations/providers/${second.body.id}`, acme.auth);
    }
  });
});
