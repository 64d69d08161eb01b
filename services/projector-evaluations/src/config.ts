// projector-evaluations alone: logging, its health port, Kafka and Postgres.
import type { z } from 'zod';
import { envFragments } from '@llm/config';

export const evaluationsProjectorConfig = envFragments.logging
  .extend(envFragments.http.shape)
  .extend(envFragments.kafka.shape)
  .extend(envFragments.postgres.shape);
export type EvaluationsProjectorConfig = z.output<typeof evaluationsProjectorConfig>;
