import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestOidcProvider, type TestOidcProvider } from '@llm/testing/oidc-provider';
import { discoverProvider, finishSignIn, OidcError, startSignIn, type FetchLike, type OidcErrorCode, type ProviderMetadata } from '../src/index.ts';

const REDIRECT_URI = 'http://127.0.0.1:9/auth/sso/callback/acme/okta';
let idp: TestOidcProvider;
let metadata: ProviderMetadata;
const calls: string[] = [];
// Stands in for the guarded outbound client: everything must come through the injected fetch.
const recordingFetch: FetchLike = (url, init) => {
  calls.push(`${init.method} ${new URL(url).pathname}`);
  return fetch(url, init);
};

beforeAll(async () => {
  idp = await startTestOidcProvider({ redirectUris: [REDIRECT_URI] });
  const discovered = await discoverProvider(idp.issuer, { fetch: recordingFetch, allowInsecure: true });
  if (!discovered.ok) throw new Error(discovered.error.message);
  metadata = discovered.value;
});
afterAll(async () => { await idp.close(); });

const base = () => ({ issuer: metadata, clientId: idp.client.client_id, redirectUri: REDIRECT_URI, fetch: recordingFetch, allowInsecure: true });

async function expectRefusal(promise: Promise<unknown>, code: OidcErrorCode): Promise<OidcError> {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(OidcError);
  expect((err as OidcError).code).toBe(code);
  return err as OidcError;
}

describe('startSignIn', () => {
  it('when a sign-in starts, then the URL carries state, nonce and an S256 challenge of the kept verifier', async () => {
    const { url, checks } = await startSignIn({ ...base(), scopes: ['email'], extraParams: { login_hint: 'alice', state: 'ignored' } });
    const u = new URL(url);
    expect(u.origin + u.pathname).toBe(metadata.authorization_endpoint);
    const q = Object.fromEntries(u.searchParams);
    expect(q).toMatchObject({ client_id: idp.client.client_id, response_type: 'code', redirect_uri: REDIRECT_URI, scope: 'openid email', state: checks.state, nonce: checks.nonce, code_challenge_method: 'S256', login_hint: 'alice' });
    expect(q.code_challenge).toBe(createHash('sha256').update(checks.code_verifier).digest('base64url'));
    expect(checks.code_verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    const again = await startSignIn(base());
    expect(again.checks.state).not.toBe(checks.state);
    expect(new URL(again.url).searchParams.get('scope')).toBe('openid profile email');
  });
});

describe('finishSignIn against a real OpenID provider', () => {
  it('when the user signs in and consents, then the verified claims come back, all through the injected fetch', async () => {
    calls.length = 0;
    const started = await startSignIn({ ...base(), issuer: idp.issuer });
    const callback = await idp.signIn(started.url);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('code')).toBeTruthy();
    const claims = await finishSignIn({ ...base(), issuer: idp.issuer, clientSecret: idp.client.client_secret, callbackUrl: callback, expected: started.checks });
    expect(claims).toEqual({ issuer: idp.issuer, sub: 'alice', email: 'alice@example.com', email_verified: true, name: 'Alice Example' });
    expect(calls).toEqual([
      'GET /.well-known/openid-configuration',
      'GET /.well-known/openid-configuration',
      'POST /token',
      'GET /jwks',
      'GET /me',
    ]);
  });

  it('when the browser lands on another route of ours, then only the callback query matters', async () => {
    const started = await startSignIn(base());
    const callback = await idp.signIn(started.url);
    // As express's req.originalUrl: relative, on the route the reference relays the callback to.
    const relayed = `/auth/callback/sso:acme:okta${callback.search}`;
    const claims = await finishSignIn({ ...base(), clientSecret: idp.client.client_secret, callbackUrl: relayed, expected: started.checks });
    expect(claims.sub).toBe('alice');
  });

  it('when the callback state differs, then it is refused before any request', async () => {
    const started = await startSignIn(base());
    const callback = await idp.signIn(started.url);
    calls.length = 0;
    await expectRefusal(finishSignIn({ ...base(), clientSecret: idp.client.client_secret, callbackUrl: callback, expected: { ...started.checks, state: 'another-state-value-entirely' } }), 'state_mismatch');
    const stripped = new URL(callback);
    stripped.searchParams.delete('state');
    await expectRefusal(finishSignIn({ ...base(), clientSecret: idp.client.client_secret, callbackUrl: stripped, expected: started.checks }), 'state_mismatch');
    expect(calls).toEqual([]);
  });

  it('when a code is replayed, then the second exchange is refused', async () => {
    const started = await startSignIn(base());
    const callback = await idp.signIn(started.url);
    const finish = () => finishSignIn({ ...base(), clientSecret: idp.client.client_secret, callbackUrl: callback, expected: started.checks });
    await finish();
    await expectRefusal(finish(), 'invalid_code');
  });

  it('when the PKCE verifier is not the one the challenge was made from, then the code is refused', async () => {
    const started = await startSignIn(base());
    const other = await startSignIn(base());
    const callback = await idp.signIn(started.url);
    await expectRefusal(finishSignIn({ ...base(), clientSecret: idp.client.client_secret, callbackUrl: callback, expected: { ...started.checks, code_verifier: other.checks.code_verifier } }), 'invalid_code');
  });

  it('when the expected nonce differs from the ID token, then it is refused', async () => {
    const started = await startSignIn(base());
    const callback = await idp.signIn(started.url);
    await expectRefusal(finishSignIn({ ...base(), clientSecret: idp.client.client_secret, callbackUrl: callback, expected: { ...started.checks, nonce: 'not-the-nonce-we-sent' } }), 'nonce_mismatch');
  });

  it.each([
    ['its claims are altered', (jwt: string) => { const [h, p, s] = jwt.split('.') as [string, string, string]; const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>; return `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'mallory' })).toString('base64url')}.${s}`; }],
    ['its signature is altered', (jwt: string) => { const [h, p, s] = jwt.split('.') as [string, string, string]; const sig = Buffer.from(s, 'base64url'); sig[10] = sig[10]! ^ 0xff; return `${h}.${p}.${sig.toString('base64url')}`; }],
    ['it is unsigned (alg none)', (jwt: string) => { const [, p] = jwt.split('.') as [string, string, string]; return `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`; }],
  ])('when the ID token is tampered with in transit (%s), then it is refused', async (_label, tamper) => {
    const tampering: FetchLike = async (url, init) => {
      const res = await fetch(url, init);
      if (new URL(url).pathname !== '/token' || res.status !== 200) return res;
      const body = (await res.json()) as Record<string, unknown>;
      return new Response(JSON.stringify({ ...body, id_token: tamper(String(body.id_token)) }), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const started = await startSignIn(base());
    const callback = await idp.signIn(started.url);
    await expectRefusal(finishSignIn({ ...base(), fetch: tampering, clientSecret: idp.client.client_secret, callbackUrl: callback, expected: started.checks }), 'id_token_invalid');
  });

  it('when the user denies consent, then the provider error is reported', async () => {
    const started = await startSignIn(base());
    const callback = await idp.signIn(started.url, { consent: 'deny' });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const err = await expectRefusal(finishSignIn({ ...base(), clientSecret: idp.client.client_secret, callbackUrl: callback, expected: started.checks }), 'provider_error');
    expect(err.details).toMatchObject({ error: 'access_denied' });
  });

  it('when the client secret is wrong, then the token request fails and the secret is not in the error', async () => {
    const started = await startSignIn(base());
    const callback = await idp.signIn(started.url);
    const err = await expectRefusal(finishSignIn({ ...base(), clientSecret: 'wrong-secret-value', callbackUrl: callback, expected: started.checks }), 'token_request_failed');
    expect(err.kind).toBe('unavailable');
    expect(JSON.stringify({ message: err.message, details: err.details })).not.toContain('wrong-secret-value');
  });

  it('when the password is wrong, then the provider keeps the user on its login page', async () => {
    const started = await startSignIn(base());
    await expect(idp.signIn(started.url, { password: 'nope' })).rejects.toThrow(/Invalid login or password/);
  });

  it('when http endpoints are not explicitly allowed, then nothing is sent', async () => {
    calls.length = 0;
    await expectRefusal(startSignIn({ ...base(), issuer: idp.issuer, allowInsecure: false }), 'discovery_failed');
    expect(calls).toEqual([]);
  });
});
