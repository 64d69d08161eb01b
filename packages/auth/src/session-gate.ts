// Session-authenticated routes (`/auth/*`): a signed session cookie that verifies, has not expired
// and was not signed out. Signed-out sessions are looked up by id on every request (one primary-key
// read), so sign-out takes effect at once on every replica. Any failure is the reference's session
// 401 `{"detail":"Unauthorized"}`; the reason goes to the log only.
import type { NextFunction, Request, Response } from 'express';
import { isSessionRevoked } from '@llm/account-model';
import { unauthenticated, unavailable } from '@llm/errors';
import type { Pool } from '@llm/postgres';
import type { SessionCodec, WebSession } from '@llm/web-session';

export interface SessionGateOptions {
  codec: SessionCodec;
  pool: Pool;
}

/** The verified session of the request, or a 401. */
export type SessionReader = (req: Request) => Promise<WebSession>;

export function sessionReader(opts: SessionGateOptions): SessionReader {
  return async (req) => {
    const result = opts.codec.fromCookieHeader(req.headers.cookie);
    if (!result.ok) {
      req.log?.debug({ reason: result.error }, 'session refused');
      throw unauthenticated();
    }
    const revoked = await isSessionRevoked(opts.pool, result.value.sid).catch((err: unknown) => {
      throw unavailable('accounts_unavailable', 'Sessions cannot be checked right now; retry shortly.', err);
    });
    if (revoked) {
      req.log?.debug({ reason: 'signed_out' }, 'session refused');
      throw unauthenticated();
    }
    return result.value;
  };
}

/** Middleware form: sets `req.session`. */
export function sessionGate(opts: SessionGateOptions) {
  const read = sessionReader(opts);
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    res.setHeader('Cache-Control', 'no-store');
    req.session = await read(req);
    next();
  };
}
