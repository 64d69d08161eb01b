// Express middleware for session-authenticated routes: a valid session cookie sets `req.session`,
// anything else answers 401 `{"detail":"Unauthorized"}` without saying why (the reason goes to
// `onReject`, for logs). Typed structurally so the package needs only express's type declarations.
import type { IncomingHttpHeaders } from 'node:http';
import { createSessionCodec, type SessionCodec, type SessionCodecOptions, type SessionRejection, type WebSession } from './session.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by `sessionAuthenticator` on the routes it guards. */
    session?: WebSession;
  }
}

/** The parts of an express request and response the middleware touches. */
export interface SessionRequest {
  headers: IncomingHttpHeaders;
  session?: WebSession;
}
export interface SessionResponse {
  status(code: number): { json(body: unknown): unknown };
  setHeader(name: string, value: string): unknown;
}

export interface SessionAuthenticatorOptions extends Partial<SessionCodecOptions> {
  /** Reuse a codec (e.g. the one that issues the cookies); otherwise one is built from `secrets`. */
  codec?: SessionCodec;
  onReject?: (reason: SessionRejection, req: SessionRequest) => void;
}

export function sessionAuthenticator(options: SessionAuthenticatorOptions) {
  const codec = options.codec ?? createSessionCodec({ ...options, secrets: options.secrets ?? [] });
  return (req: SessionRequest, res: SessionResponse, next: () => void): void => {
    const result = codec.fromCookieHeader(req.headers.cookie);
    if (!result.ok) {
      options.onReject?.(result.error, req);
      res.setHeader('Cache-Control', 'no-store');
      res.status(401).json({ detail: 'Unauthorized' });
      return;
    }
    req.session = result.value;
    next();
  };
}
