// Given/when/then tests of PATCH /auth/session/identities: a session gains only identities that were
// verified — by this server's SSO callback (never through this route) or by the trusted session
// service's signed assertion for this very session.
import type { Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { AppError } from '@llm/errors';
import { RequestValidationError } from '@llm/http';
import {
  createSessionAssertionVerifier, createSessionCodec, signSessionAssertion, SESSION_ASSERTION_HEADER, type WebSession,
} from '@llm/web-session';
import type { AccountCommands } from '../src/accounts/adapters/account-commands.ts';
import { sessionRoutes } from '../src/accounts/http/session-routes.ts';

const SERVICE_SECRET = 'service-secret-'.padEnd(40, 'x');
const sessions = createSessionCodec({ secrets: ['session-secret-'.padEnd(40, 'y')], secure: false });
const session: WebSession = sessions.issue({ user_id: '00000000-0000-4000-8000-000000000001', identities: ['sso:acme:okta'] }).session;

function patch(trusted: boolean) {
  const handlers = sessionRoutes({
    // This route never records an event: no command is expected.
    commands: {} as AccountCommands, sessions, readSession: async () => session,
    assertions: trusted ? createSessionAssertionVerifier({ secrets: [SERVICE_SECRET] }) : undefined,
  }, {});
  const handler = handlers['auth.session.identities'] as RequestHandler;
  return async (identities: unknown[], assertion?: string) => {
    const out: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} };
    const res = {
      setHeader(k: string, v: string) { out.headers[k.toLowerCase()] = v; return this; },
      status(n: number) { out.status = n; return this; },
      json(b: unknown) { out.body = b; return this; },
    } as unknown as Response;
    const req = { body: { session_identities: identities }, headers: assertion ? { [SESSION_ASSERTION_HEADER]: assertion } : {} } as unknown as Request;
    await handler(req, res, () => undefined);
    return out;
  };
}

const forbidden = async (p: Promise<unknown>): Promise<AppError> => {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).kind).toBe('forbidden');
  return err as AppError;
};

describe('PATCH /auth/session/identities', () => {
  it('when the session repeats identities it already holds, then it answers 200 without any proof', async () => {
    const r = await patch(false)(['sso:acme:okta', 'sso:acme:okta']);
    expect(r).toMatchObject({ status: 200, body: { session_identities: ['sso:acme:okta'], previous: ['sso:acme:okta'] } });
  });

  it('when no trusted session service is configured, then e-mail and social identities are refused', async () => {
    const err = await forbidden(patch(false)(['email:otp', 'social:github']));
    expect(err.code).toBe('identity_not_verified');
    expect(err.details).toEqual({ unverified_identities: ['email:otp', 'social:github'] });
  });

  it('given a trusted session service, when it vouches for this session and these identities, then they are merged', async () => {
    const identities = ['email:otp', 'sso:acme:okta'];
    const r = await patch(true)(identities, signSessionAssertion(SERVICE_SECRET, { sid: session.sid, identities }));
    expect(r).toMatchObject({ status: 200, body: { session_identities: ['sso:acme:okta', 'email:otp'], previous: ['sso:acme:okta'] } });
    const reissued = sessions.fromCookieHeader(r.headers['set-cookie']!.split(';')[0]);
    expect(reissued.ok && reissued.value.identities).toEqual(['sso:acme:okta', 'email:otp']);
  });

  it('given a trusted session service, when the assertion is missing, forged, for another session or other identities, then 403', async () => {
    const call = patch(true);
    await forbidden(call(['email:otp']));
    await forbidden(call(['email:otp'], signSessionAssertion('not-the-service-'.padEnd(40, 'z'), { sid: session.sid, identities: ['email:otp'] })));
    await forbidden(call(['email:otp'], signSessionAssertion(SERVICE_SECRET, { sid: 'another-session-id-0000', identities: ['email:otp'] })));
    await forbidden(call(['email:otp', 'email:password'], signSessionAssertion(SERVICE_SECRET, { sid: session.sid, identities: ['email:otp'] })));
  });

  it('when an sso: identity is claimed, then it is refused even with a valid assertion', async () => {
    const identities = ['sso:other:okta'];
    const err = await forbidden(patch(true)(identities, signSessionAssertion(SERVICE_SECRET, { sid: session.sid, identities })));
    expect(err.details).toEqual({ unverified_identities: ['sso:other:okta'] });
  });

  it('when an identity is malformed or a pattern, then 422 before anything else', async () => {
    const err = await patch(true)(['email:*', 'nonsense']).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).issues.map((i) => i.loc)).toEqual([['body', 'session_identities', 0], ['body', 'session_identities', 1]]);
  });
});
