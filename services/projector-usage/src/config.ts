// projector-usage alone: logging, its health port, Kafka and Postgres.
import type { z } from 'zod';
import { envFragments } from '@llm/config';

export const usageProjectorConfig = envFragments.logging
  .extend(envFragments.http.shape)
  .extend(envFragments.kafka.shape)
  .extend(envFragments.postgres.shape);
export type UsageProjectorConfig = z.output<typeof usageProjectorConfig>;
