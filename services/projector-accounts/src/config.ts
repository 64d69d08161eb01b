import { z } from 'zod';
import { envFragments } from '@llm/config';

/**
 * ACCOUNTS_PLATFORM_FACTS (default true): accepted account facts that are platform events (saved
 * query revisions committed, …) go through the outbox to platform.events.v1. `false` turns that
 * off, for a rebuild of the accounts read model into an empty database under the live consumer name,
 * which would otherwise emit every fact of the log again.
 */
export const platformFactsEnv = z.object({ ACCOUNTS_PLATFORM_FACTS: envFragments.bool.default(true) });

export const accountsProjectorConfig = envFragments.logging
  .extend(envFragments.http.shape)
  .extend(envFragments.kafka.shape)
  .extend(envFragments.postgres.shape)
  .extend(platformFactsEnv.shape);
export type AccountsProjectorConfig = z.infer<typeof accountsProjectorConfig>;
