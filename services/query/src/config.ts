import { z } from 'zod';
import { envFragments } from '@llm/config';
import { accessEnv } from '@llm/access';
import { authMethodsEnv } from '@llm/auth-policy';
import { sessionEnv } from '@llm/web-session';

export const queryConfig = envFragments.logging
  .extend(envFragments.http.shape)
  .extend(envFragments.postgres.shape)
  .extend(envFragments.clickhouse.shape)
  .extend(accessEnv.shape)
  .extend(sessionEnv.shape)
  .extend(authMethodsEnv.shape)
  .extend({
    JSON_MAX_BODY_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
    /** Longest a read-model query may run; beyond it the request answers 503 with Retry-After. */
    QUERY_TIMEOUT_MS: z.coerce.number().int().min(1000).default(15_000),
  });
export type QueryConfig = z.infer<typeof queryConfig>;
