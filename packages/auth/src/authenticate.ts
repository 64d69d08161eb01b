// Authentication middleware for tenant routes (`Authorization: ApiKey <key>`, or a bare key as the
// reference's legacy form) and for operator routes (`Authorization: Access <ADMIN_TOKEN>`).
// Resolved scopes are cached briefly: the ingest hot path must not hit Postgres per request.
import type { NextFunction, Request, Response } from 'express';
import { unauthenticated, unavailable } from '@llm/errors';
import { parseApiKey, safeEqual } from './api-key.ts';

export interface Scope {
  projectId: string;
  workspaceId: string;
  organizationId: string;
  userId: string;
  apiKeyId: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    scope: Scope;
  }
}

/** Looks up a non-revoked, non-expired key by prefix and secret hash. */
export type ApiKeyLookup = (prefix: string, secretHash: string) => Promise<Scope | undefined>;

export interface AuthenticatorOptions {
  lookup: ApiKeyLookup;
  cacheTtlMs?: number;
  cacheMax?: number;
}

export function apiKeyAuthenticator(opts: AuthenticatorOptions) {
  const ttl = opts.cacheTtlMs ?? 30_000;
  const max = opts.cacheMax ?? 10_000;
  const cache = new Map<string, { scope: Scope | undefined; until: number }>();

  async function resolve(header: string | undefined): Promise<Scope | undefined> {
    if (!header) return undefined;
    let raw = header.trim();
    if (/^apikey\s+/i.test(raw)) raw = raw.replace(/^apikey\s+/i, '');
    else if (/^(bearer|secret|access|basic)\s+/i.test(raw)) return undefined;
    const parsed = parseApiKey(raw);
    if (!parsed) return undefined;
    const ck = `${parsed.prefix}.${parsed.secretHash}`;
    const hit = cache.get(ck);
    const now = Date.now();
    if (hit && hit.until > now) return hit.scope;
    let scope: Scope | undefined;
    try {
      scope = await opts.lookup(parsed.prefix, parsed.secretHash);
    } catch (err) {
      // The key store being unreachable is not a credential problem: 503 makes clients retry.
      throw unavailable('auth_unavailable', 'Credentials cannot be checked right now; retry shortly.', err);
    }
    if (cache.size >= max) cache.delete(cache.keys().next().value!);
    // Misses are cached for a shorter time so a just-created key works almost at once.
    cache.set(ck, { scope, until: now + (scope ? ttl : Math.min(ttl, 1_000)) });
    return scope;
  }

  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const scope = await resolve(req.header('authorization'));
    if (!scope) throw unauthenticated();
    req.scope = scope;
    next();
  };
}

export function adminAuthenticator(token: string) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const h = req.header('authorization') ?? '';
    const m = /^access\s+(.+)$/i.exec(h.trim());
    if (!m || !safeEqual(m[1]!, token)) throw unauthenticated();
    next();
  };
}
