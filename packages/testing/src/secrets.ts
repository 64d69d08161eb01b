// Fresh signing and encryption secrets for a test or bench stack (sessions over plain http).
import { randomBytes } from 'node:crypto';

const KEYS = ['SESSION_SECRETS', 'SECRETS_KEY', 'SESSION_COOKIE_SECURE'] as const;
export type TestSecretsEnv = Record<(typeof KEYS)[number], string>;

export function testSecretsEnv(): TestSecretsEnv {
  return { SESSION_SECRETS: randomBytes(32).toString('hex'), SECRETS_KEY: randomBytes(32).toString('base64'), SESSION_COOKIE_SECURE: 'false' };
}

/** The secrets among configuration overrides. */
export function pickSecrets(o: Record<string, string>): Partial<TestSecretsEnv> {
  const out: Partial<TestSecretsEnv> = {};
  for (const k of KEYS) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
