// SSO providers and organization auth flags end to end: CRUD with read-your-writes, `test` against a
// real OpenID provider on loopback (allowed by configuration) and against targets that must fail,
// secrets never returned, the flag rules, tenancy, and a real race on one organization.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { startTxtDnsServer, type TxtDnsServer } from '@llm/testing/dns-server';
import { startTestOidcProvider, type TestOidcProvider } from '@llm/testing/oidc-provider';

const letters = (n: number): string => Array.from(randomBytes(n), (b) => String.fromCharCode(97 + (b % 26))).join('');
let t: TestApp;
let idp: TestOidcProvider;
let dns: TxtDnsServer;
let incomplete: http.Server;
let incompleteIssuer: string;
let a: TestAccount;
let b: TestAccount;

beforeAll(async () => {
  dns = await startTxtDnsServer();
  t = await startTestApp({ DNS_SERVERS: `127.0.0.1:${dns.port}`, OUTBOUND_ALLOW_HOSTS: '127.0.0.1', OUTBOUND_ALLOW_INSECURE_HTTP: 'true' });
  idp = await startTestOidcProvider();
  // An issuer whose discovery document lacks the userinfo endpoint.
  incomplete = http.createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ issuer: incompleteIssuer, authorization_endpoint: `${incompleteIssuer}/auth`, token_endpoint: `${incompleteIssuer}/token`, jwks_uri: `${incompleteIssuer}/jwks` }));
  });
  await new Promise<void>((r) => incomplete.listen(0, '127.0.0.1', () => r()));
  incompleteIssuer = `http://127.0.0.1:${(incomplete.address() as AddressInfo).port}`;
  [a, b] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
});
afterAll(async () => { await t?.stop(); await idp?.close(); incomplete?.close(); await dns?.close().catch(() => undefined); });

async function call(method: string, path: string, acc: TestAccount, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
const settings = (issuer = idp.issuer) => ({ issuer_url: issuer, client_id: idp.client.client_id, client_secret: idp.client.client_secret });

describe('SSO providers', () => {
  it('when an organization allows no fallback sign-in, then providers cannot be changed', async () => {
    const r = await call('POST', '/organizations/providers/', b, { slug: 'okta', settings: settings() });
    expect(r).toEqual({ status: 400, body: { detail: 'To modify domains or SSO providers, enable email or social authentication for this organization, or enable root access for owners.' } });
  });

  it('when a provider is created, tested, changed and deleted, then each step is visible at once and the secret never comes back', async () => {
    expect((await call('PATCH', `/organizations/${a.organizationId}`, a, { flags: { allow_email: true } })).status).toBe(200);
    const slug = `okta-${letters(5)}`;
    const created = await call('POST', '/organizations/providers/', a, { slug, name: 'Okta', flags: { is_active: true, is_valid: true, custom: true }, settings: { ...settings(), scopes: ['openid', 'email'] } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      slug, name: 'Okta', organization_id: a.organizationId, flags: { is_valid: false, is_active: false, custom: true },
      settings: { issuer_url: idp.issuer, client_id: idp.client.client_id, scopes: ['openid', 'email'], has_client_secret: true },
    });
    expect(JSON.stringify(created.body)).not.toContain(idp.client.client_secret);
    const id = created.body.id as string;
    const listed = await call('GET', '/organizations/providers/', a);
    expect(listed.body.map((p: { id: string }) => p.id)).toContain(id);
    expect(JSON.stringify(listed.body)).not.toContain(idp.client.client_secret);

    const tested = await call('POST', `/organizations/providers/${id}/test`, a);
    expect(tested).toMatchObject({ status: 200, body: { id, flags: { is_valid: true, is_active: true } } });
    expect((await call('GET', '/organizations/providers/', a)).body.find((p: { id: string }) => p.id === id).flags.is_active).toBe(true);

    // SSO on: the last active provider cannot go, nor be deactivated.
    expect((await call('PATCH', `/organizations/${a.organizationId}`, a, { flags: { allow_sso: true } })).status).toBe(200);
    const last = await call('DELETE', `/organizations/providers/${id}`, a);
    expect(last).toEqual({ status: 400, body: { detail: 'Cannot delete the last active and verified SSO provider while SSO is enabled.' } });
    expect((await call('PATCH', `/organizations/providers/${id}`, a, { flags: { is_active: false } })).status).toBe(400);

    // The same slug is not a conflict with itself; new settings need a new test.
    expect((await call('PATCH', `/organizations/${a.organizationId}`, a, { flags: { allow_sso: false } })).status).toBe(200);
    const renamed = await call('PATCH', `/organizations/providers/${id}`, a, { slug, name: 'Okta EU', settings: { client_id: 'other-client' } });
    expect(renamed).toMatchObject({ status: 200, body: { name: 'Okta EU', flags: { is_valid: false, is_active: false }, settings: { client_id: 'other-client', issuer_url: idp.issuer } } });
    expect((await call('PATCH', `/organizations/providers/${id}`, a, { flags: { is_active: true } })).body.detail).toBe('A provider becomes active by passing its test.');

    const del = await call('DELETE', `/organizations/providers/${id}`, a);
    expect(del.status).toBe(204);
    expect((await call('GET', '/organizations/providers/', a)).body.map((p: { id: string }) => p.id)).not.toContain(id);
    expect((await call('POST', `/organizations/providers/${id}/test`, a)).status).toBe(404);
  });

  it('when the discovery document is incomplete or the issuer is a private address the guard refuses, then the test fails and deactivates', async () => {
    const ok = await call('POST', '/organizations/providers/', a, { slug: `ok-${letters(5)}`, settings: settings() });
    expect((await call('POST', `/organizations/providers/${ok.body.id}/test`, a)).body.flags.is_active).toBe(true);
    // The issuer moves to one without a userinfo endpoint: the next test fails and deactivates.
    expect((await call('PATCH', `/organizations/providers/${ok.body.id}`, a, { settings: { issuer_url: incompleteIssuer } })).status).toBe(200);
    expect((await call('POST', `/organizations/providers/${ok.body.id}/test`, a)).body.flags).toMatchObject({ is_valid: false, is_active: false });

    for (const issuer of ['http://10.0.0.1', 'http://169.254.169.254', 'ftp://127.0.0.1', 'not a url']) {
      const p = await call('POST', '/organizations/providers/', a, { slug: `bad-${letters(6)}`, settings: settings(issuer) });
      expect(p.status).toBe(200);
      const r = await call('POST', `/organizations/providers/${p.body.id}/test`, a);
      expect(r).toMatchObject({ status: 200, body: { flags: { is_valid: false, is_active: false } } });
    }
  });

  it('when bodies are malformed or a slug is taken, then 422 or 409 naming the problem', async () => {
    const slug = `dup-${letters(5)}`;
    expect((await call('POST', '/organizations/providers/', a, { slug, settings: settings() })).status).toBe(200);
    expect(await call('POST', '/organizations/providers/', a, { slug, settings: settings() })).toEqual({ status: 409, body: { detail: `Provider with slug '${slug}' already exists` } });
    for (const body of [{ slug: 'Okta1', settings: settings() }, { slug: 'x' }, { slug: 'x', settings: { ...settings(), client_secret: '' } }, { slug: 'x', settings: settings(), type: 'saml' }]) {
      const r = await call('POST', '/organizations/providers/', a, body);
      expect(r.status).toBe(422);
      expect(r.body.detail[0]).toMatchObject({ loc: expect.arrayContaining(['body']), msg: expect.any(String), type: expect.any(String) });
    }
  });

  it("when another organization's provider is addressed, then it does not exist", async () => {
    const mine = await call('POST', '/organizations/providers/', a, { slug: `own-${letters(5)}`, settings: settings() });
    expect((await call('PATCH', `/organizations/${b.organizationId}`, b, { flags: { allow_root: true } })).status).toBe(200);
    for (const [method, path, body] of [['PATCH', `/organizations/providers/${mine.body.id}`, { name: 'x' }], ['DELETE', `/organizations/providers/${mine.body.id}`], ['POST', `/organizations/providers/${mine.body.id}/test`]] as const) {
      expect((await call(method, path, b, body)).status).toBe(404);
    }
    expect((await call('GET', '/organizations/providers/', b)).body.map((p: { id: string }) => p.id)).not.toContain(mine.body.id);
  });
});

describe('organization auth flags', () => {
  it('when flags are changed, then the rules of the reference hold', async () => {
    const c = await createAccount(t.baseUrl, t.adminToken);
    const org = `/organizations/${c.organizationId}`;
    const invalid = 'Invalid request data for organization update.';
    expect((await call('PATCH', org, c, { flags: { auto_join: true } })).body.detail).toMatch(new RegExp(`^${invalid.replace('.', '\\.')} auto_join and domains_only need a verified domain`));
    expect((await call('PATCH', org, c, { flags: { allow_sso: true } })).body.detail).toMatch(/SSO needs an active and valid SSO provider/);
    // Nobody could sign in: root access is forced on.
    const locked = await call('PATCH', org, c, { flags: { allow_email: false, allow_social: false, allow_sso: false } });
    expect(locked.status).toBe(200);
    expect(locked.body.flags).toMatchObject({ allow_email: false, allow_social: false, allow_sso: false, allow_root: true, domains_only: false, auto_join: false });
    // Read-your-writes, and the organization is invisible to non-members.
    expect((await call('GET', org, c)).body.flags.allow_root).toBe(true);
    expect((await call('GET', org, a)).status).toBe(403); // "Not a member of this organization." (compat §3.1)
    expect((await call('PATCH', org, a, { name: 'mine now' })).status).toBe(404);
    // Name changes; the slug is immutable; bad bodies are 422.
    const named = await call('PATCH', org, c, { name: 'Renamed', description: 'About us' });
    expect(named.body).toMatchObject({ name: 'Renamed', description: 'About us', flags: { allow_root: true } });
    expect((await call('PATCH', org, c, { slug: 'another-slug' })).status).toBe(400);
    expect((await call('PATCH', org, c, { flags: { allow_email: 'yes' } })).status).toBe(422);
    expect((await call('PATCH', org, c, { flags: { unknown_flag: true } })).status).toBe(422);
    // With a verified domain, auto_join is allowed; then the domain cannot go until it is off again.
    const d = await call('POST', '/organizations/domains/', c, { domain: `${letters(8)}.example.org` });
    dns.publish(d.body.dns.name, [d.body.dns.value]);
    expect((await call('POST', '/organizations/domains/verify', c, { domain_id: d.body.id })).status).toBe(200);
    expect((await call('PATCH', org, c, { flags: { auto_join: true } })).body.flags.auto_join).toBe(true);
    expect((await call('DELETE', `/organizations/domains/${d.body.id}`, c)).body).toEqual({ detail: 'Disable domains-only and auto-join before modifying verified domains.' });
    expect((await call('PATCH', org, c, { flags: { auto_join: false } })).status).toBe(200);
    expect((await call('DELETE', `/organizations/domains/${d.body.id}`, c)).status).toBe(204);
  });

  it('when several clients change one organization at once, then exactly one wins and the others get 409', async () => {
    const c = await createAccount(t.baseUrl, t.adminToken);
    const org = `/organizations/${c.organizationId}`;
    // Separate connections, released together.
    const agents = Array.from({ length: 6 }, () => new http.Agent({ keepAlive: false }));
    const patch = (i: number) => new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ name: `Name ${i}` });
      const req = http.request(`${t.baseUrl}${org}`, { method: 'PATCH', agent: agents[i], headers: { ...c.auth, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); });
      req.on('error', reject);
      req.end(body);
    });
    const statuses = await Promise.all(agents.map((_, i) => patch(i)));
    // Each read the same version; the projector applies the first in partition order only.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 409)).toBe(true);
    // The stored name is a winner's: no 409'd change slipped through.
    const winners = statuses.flatMap((s, i) => (s === 200 ? [`Name ${i}`] : []));
    expect(winners).toContain((await call('GET', org, c)).body.name);
  });
});
