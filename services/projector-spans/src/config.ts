import { z } from 'zod';
import { envFragments } from '@llm/config';

export const spansProjectorConfig = envFragments.logging
  .extend(envFragments.http.shape)
  .extend(envFragments.kafka.shape)
  .extend(envFragments.clickhouse.shape)
  .extend(envFragments.admin.shape)
  .extend({ PROJECTOR_TRACE_CACHE_SPANS: z.coerce.number().int().positive().default(100_000) });
export type SpansProjectorConfig = z.infer<typeof spansProjectorConfig>;
