// Headless initialisation (issue 29): an organization, its project, its owner and a known API key
// created at start from the environment, so a compose or Kubernetes deployment is usable without an
// operator calling the admin API first (Langfuse's LANGFUSE_INIT_* do the same). All four together,
// or none; the key must be in the API key format (`<8 letters or digits>.<64 lowercase hex>`).
import { z } from 'zod';
import { parseApiKey } from '@llm/auth';
import type { ConfigResult } from '@llm/config';

const name = z.string().trim().min(1).max(255);

export const headlessInitEnv = z.object({
  INIT_ORG_NAME: name.optional(),
  INIT_PROJECT_NAME: name.optional(),
  INIT_USER_EMAIL: z.email({ error: 'must be an e-mail address' }).max(320).optional(),
  INIT_API_KEY: z.string().optional(),
});
export type HeadlessInitEnv = z.output<typeof headlessInitEnv>;

export interface HeadlessInit {
  organizationName: string;
  projectName: string;
  userEmail: string;
  /** The raw key clients will send, and what is stored of it. */
  apiKey: { raw: string; prefix: string; secretHash: string };
}

const NAMES = ['INIT_ORG_NAME', 'INIT_PROJECT_NAME', 'INIT_USER_EMAIL', 'INIT_API_KEY'] as const;

/** The initialisation the environment asks for: none when no INIT_* is set. */
export function headlessInitFromEnv(env: HeadlessInitEnv): ConfigResult<HeadlessInit | undefined> {
  const missing = NAMES.filter((k) => env[k] === undefined);
  if (missing.length === NAMES.length) return { ok: true, config: undefined };
  const problems = missing.map((k) => `${k}: required when any of ${NAMES.join(', ')} is set`);
  const key = env.INIT_API_KEY === undefined ? undefined : parseApiKey(env.INIT_API_KEY);
  if (env.INIT_API_KEY !== undefined && !key) problems.push('INIT_API_KEY: must be an API key, <8 letters or digits>.<64 lowercase hex digits>');
  if (problems.length > 0 || !key) return { ok: false, problems };
  return {
    ok: true,
    config: { organizationName: env.INIT_ORG_NAME!, projectName: env.INIT_PROJECT_NAME!, userEmail: env.INIT_USER_EMAIL!, apiKey: { raw: env.INIT_API_KEY!.trim(), ...key } },
  };
}
