// Every 401 names the credential the path takes, in `WWW-Authenticate` (RFC 9110 §11.6.1 requires
// one): `/admin/` paths the operator token (`Access`), the session routes under `/auth/` the signed
// session cookie, every other route a project API key (`ApiKey`; a bare key is accepted too, and
// member routes also take the session cookie, which no header scheme names). Set where the status
// line is written, so a 401 from any layer — the operator gate, a session check, the error
// handler — carries it, and an answer that already names its own challenge keeps it.
import type { RequestHandler } from 'express';

export const API_KEY_CHALLENGE = 'ApiKey realm="llm"';
export const OPERATOR_CHALLENGE = 'Access realm="llm-admin"';
export const SESSION_CHALLENGE = 'Session realm="llm", cookie="llm_session"';

/** The challenge of a 401 on this path (the /api prefix already stripped). */
export function challengeFor(path: string): string {
  const p = path.toLowerCase();
  if (p.includes('/admin/')) return OPERATOR_CHALLENGE;
  if (p.startsWith('/auth/')) return SESSION_CHALLENGE;
  return API_KEY_CHALLENGE;
}

export const authChallenges: RequestHandler = (req, res, next) => {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
  // One wrapper per response: Node writes the status line through writeHead, explicitly or not.
  const challenged = (...args: unknown[]): typeof res => {
    if (args[0] === 401 && !res.hasHeader('WWW-Authenticate')) res.setHeader('WWW-Authenticate', challengeFor(req.path));
    return writeHead(...args);
  };
  res.writeHead = challenged as typeof res.writeHead;
  next();
};
