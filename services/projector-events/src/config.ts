import type { z } from 'zod';
import { envFragments } from '@llm/config';
import { spanPurgeEnv } from '@llm/project-purge';

export const eventsProjectorConfig = envFragments.logging
  .extend(envFragments.http.shape)
  .extend(envFragments.kafka.shape)
  .extend(envFragments.clickhouse.shape)
  .extend(spanPurgeEnv.shape)
  /** The accounts database, read by the events purge for deleted projects (unset: no purge here). */
  .extend({ DATABASE_URL: envFragments.postgres.shape.DATABASE_URL.optional() });
export type EventsProjectorConfig = z.infer<typeof eventsProjectorConfig>;
