// projector-usage alone: logging, its health port, Kafka and Postgres, and billing (usage reports).
import type { z } from 'zod';
import { envFragments } from '@llm/config';
import { accessEnv } from '@llm/access';
import { billingEnv } from '@llm/billing';

export const usageProjectorConfig = envFragments.logging
  .extend(envFragments.http.shape)
  .extend(envFragments.kafka.shape)
  .extend(envFragments.postgres.shape)
  // Usage reports go to the payments processor (billing); its configuration is validated against the plans.
  .extend(accessEnv.shape)
  .extend(billingEnv.shape);
export type UsageProjectorConfig = z.output<typeof usageProjectorConfig>;
