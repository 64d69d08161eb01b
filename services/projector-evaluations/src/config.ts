// projector-evaluations alone: logging, its health port, Kafka and Postgres.
import type { z } from 'zod';
import { envFragments } from '@llm/config';
import { spanPurgeEnv } from '@llm/project-purge';

export const evaluationsProjectorConfig = envFragments.logging
  .extend(envFragments.http.shape)
  .extend(envFragments.kafka.shape)
  .extend(envFragments.postgres.shape)
  // Deleted projects' runs are purged on the span purges' schedule (SPAN_PURGE_*).
  .extend(spanPurgeEnv.shape);
export type EvaluationsProjectorConfig = z.output<typeof evaluationsProjectorConfig>;
