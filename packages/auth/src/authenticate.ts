// Authentication middleware for tenant routes (`Authorization: ApiKey <key>`, or a bare key as the
// reference's legacy form) and for operator routes (`Authorization: Access <ADMIN_TOKEN>`).
// Resolved scopes are cached briefly (5 s): the ingest hot path must not hit Postgres per request.
// A key revoked through this process is dropped from the cache at once (`invalidate`); other
// replicas stop accepting it within the cache lifetime. A cached key never outlives its expiry.
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

/** A key's scope, and when it expires (epoch ms), as the lookup found it. */
export interface ApiKeyRecord extends Scope { expiresAtMs?: number | undefined }

/** Looks up a non-revoked, non-expired key by prefix and secret hash. */
export type ApiKeyLookup = (prefix: string, secretHash: string) => Promise<ApiKeyRecord | undefined>;

/** The middleware, plus the cache door for revocations handled by this process. */
export interface ApiKeyAuthenticator {
  (req: Request, res: Response, next: NextFunction): Promise<void>;
  /** Forget every cached resolution of keys with this prefix. */
  invalidate(prefix: string): void;
  /**
   * The scope of an `Authorization` value, read exactly as the middleware reads the header (for
   * transports that are not express: OTLP/gRPC's `authorization` metadata); undefined = no valid
   * key. Throws `unavailable` when the key store cannot be reached.
   */
  scopeOf(authorization: string | undefined): Promise<Scope | undefined>;
}

export interface AuthenticatorOptions {
  lookup: ApiKeyLookup;
  cacheTtlMs?: number;
  cacheMax?: number;
}

export function apiKeyAuthenticator(opts: AuthenticatorOptions): ApiKeyAuthenticator {
  const ttl = opts.cacheTtlMs ?? 5_000;
  const max = opts.cacheMax ?? 10_000;
  const cache = new Map<string, { scope: ApiKeyRecord | undefined; until: number }>();

  async function resolve(header: string | undefined): Promise<ApiKeyRecord | undefined> {
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
    let scope: ApiKeyRecord | undefined;
    try {
      scope = await opts.lookup(parsed.prefix, parsed.secretHash);
    } catch (err) {
      // The key store being unreachable is not a credential problem: 503 makes clients retry.
      throw unavailable('auth_unavailable', 'Credentials cannot be checked right now; retry shortly.', err);
    }
    if (cache.size >= max) cache.delete(cache.keys().next().value!);
    // Misses are cached for a shorter time so a just-created key works almost at once.
    const until = scope ? Math.min(now + ttl, scope.expiresAtMs ?? Infinity) : now + Math.min(ttl, 1_000);
    cache.set(ck, { scope, until });
    return scope;
  }

  async function scopeOf(authorization: string | undefined): Promise<Scope | undefined> {
    const found = await resolve(authorization);
    if (!found) return undefined;
    const { expiresAtMs: _expires, ...scope } = found;
    return scope;
  }

  const middleware = async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const scope = await scopeOf(req.header('authorization'));
    if (!scope) throw unauthenticated();
    req.scope = scope;
    next();
  };
  return Object.assign(middleware, {
    invalidate(prefix: string): void {
      for (const k of cache.keys()) if (k.startsWith(`${prefix}.`)) cache.delete(k);
    },
    scopeOf,
  });
}

export function adminAuthenticator(token: string) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const h = req.header('authorization') ?? '';
    const m = /^access\s+(.+)$/i.exec(h.trim());
    if (!m || !safeEqual(m[1]!, token)) throw unauthenticated();
    next();
  };
}
