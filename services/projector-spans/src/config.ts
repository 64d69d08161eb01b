import { z } from 'zod';
import { envFragments } from '@llm/config';
import { spanPurgeEnv } from '@llm/project-purge';

export const spansProjectorConfig = envFragments.logging
  .extend(envFragments.http.shape)
  .extend(envFragments.kafka.shape)
  .extend(envFragments.clickhouse.shape)
  .extend(envFragments.admin.shape)
  .extend(spanPurgeEnv.shape)
  .extend({
    /** The accounts database, read by the span purge for deleted projects (unset: no purge here). */
    DATABASE_URL: envFragments.postgres.shape.DATABASE_URL.optional(),
    /** Approximate bytes of the rows the trace cache holds (default 256 MiB). */
    PROJECTOR_TRACE_CACHE_BYTES: z.coerce.number().int().positive().default(256 * 1024 * 1024),
    /** Spans the trace cache holds (a second bound; whichever is reached first evicts). */
    PROJECTOR_TRACE_CACHE_SPANS: z.coerce.number().int().positive().default(100_000),
  });
export type SpansProjectorConfig = z.infer<typeof spansProjectorConfig>;
