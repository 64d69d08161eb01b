// Environment fragment for services that issue or read sessions; compose it into the service's own
// schema (`@llm/config`'s parseConfig). Problems are reported without echoing secret values.
import { z } from 'zod';
import { DEFAULT_SESSION_TTL_SECONDS, MAX_SESSION_TTL_SECONDS } from './session.ts';
import { MIN_SECRET_BYTES } from './signed-token.ts';

export const sessionEnv = z.object({
  /** Comma-separated, newest first: sessions are signed with the first and accepted under any. */
  SESSION_SECRETS: z
    .string()
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(
      z
        .array(z.string().refine((s) => Buffer.byteLength(s, 'utf8') >= MIN_SECRET_BYTES, { message: `each secret must be at least ${MIN_SECRET_BYTES} bytes` }))
        .min(1, { message: 'at least one secret is required' }),
    ),
  SESSION_TTL_S: z.coerce.number().int().min(60).max(MAX_SESSION_TTL_SECONDS).default(DEFAULT_SESSION_TTL_SECONDS),
  /** `false` only for plain-http development. */
  SESSION_COOKIE_SECURE: z.enum(['true', 'false', '1', '0']).default('true').transform((v) => v === 'true' || v === '1'),
});
export type SessionEnv = z.infer<typeof sessionEnv>;

/** Codec options from the parsed fragment. */
export const sessionOptionsFromEnv = (env: SessionEnv): { secrets: string[]; ttlSeconds: number; secure: boolean } => ({
  secrets: env.SESSION_SECRETS,
  ttlSeconds: env.SESSION_TTL_S,
  secure: env.SESSION_COOKIE_SECURE,
});

/**
 * Shared secrets of a trusted session service that may vouch for identities it verified (signed
 * assertions, see session-assertion.ts). Unset: no one may; a session gains identities only by
 * signing in through this server.
 */
export const sessionAssertionEnv = z.object({
  SESSION_ASSERTION_SECRETS: z
    .string()
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(z.string().refine((s) => Buffer.byteLength(s, 'utf8') >= MIN_SECRET_BYTES, { message: `each secret must be at least ${MIN_SECRET_BYTES} bytes` })).min(1))
    .optional(),
});
export type SessionAssertionEnv = z.infer<typeof sessionAssertionEnv>;
