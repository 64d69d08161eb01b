// The operator gate (compat §2.1): every path containing `/admin/` takes only
// `Authorization: Access <ADMIN_TOKEN>`, checked before routing, so an unauthenticated call is a 401
// whether or not the route is served (401 wins over 404, 405 and 422: nobody can probe which
// operator routes exist). The per-route adminAuthenticator stays as a second line for those served.
import type { RequestHandler } from 'express';
import { safeEqual } from './api-key.ts';

/** The reference's body for a refused operator call. */
export const ADMIN_UNAUTHORIZED = { detail: { message: 'Unauthorized' } } as const;

export const isAdminPath = (path: string): boolean => path.toLowerCase().includes('/admin/');

/** Whether an Authorization header carries the operator token (no token configured: never). */
export function isAdminCredential(header: string | undefined, token: string): boolean {
  const m = /^access\s+(\S+)$/i.exec((header ?? '').trim());
  return token !== '' && m !== null && safeEqual(m[1]!, token);
}

export function adminPathGate(token: string): RequestHandler {
  return (req, res, next) => {
    if (!isAdminPath(req.path) || isAdminCredential(req.header('authorization'), token)) { next(); return; }
    res.status(401).json(ADMIN_UNAUTHORIZED);
  };
}
