// The secret an organization publishes in DNS to prove it controls a domain, and its lifetime.
import { randomBytes } from 'node:crypto';

/** 16 random bytes as 32 lowercase hex characters: the reference's format, and URL- and DNS-safe. */
export const generateToken = (): string => randomBytes(16).toString('hex');

const TOKEN = /^[0-9a-f]{32}$/;
export const isToken = (value: string): boolean => TOKEN.test(value);

/** A token proves ownership for 48 hours after it was issued; refresh and reset issue a new one. */
export const TOKEN_TTL_MS = 48 * 60 * 60 * 1000;

export const tokenExpiresAt = (issuedAt: Date): Date => new Date(issuedAt.getTime() + TOKEN_TTL_MS);

/** Expired strictly after the 48 hours: at the expiry instant itself the token still counts. */
export const isTokenExpired = (issuedAt: Date, now: Date = new Date()): boolean =>
  now.getTime() > tokenExpiresAt(issuedAt).getTime();
