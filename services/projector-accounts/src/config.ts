import type { z } from 'zod';
import { envFragments } from '@llm/config';

export const accountsProjectorConfig = envFragments.logging
  .extend(envFragments.http.shape)
  .extend(envFragments.kafka.shape)
  .extend(envFragments.postgres.shape);
export type AccountsProjectorConfig = z.infer<typeof accountsProjectorConfig>;
