import type { z } from 'zod';
import { envFragments } from '@llm/config';

export const eventsProjectorConfig = envFragments.logging
  .extend(envFragments.http.shape)
  .extend(envFragments.kafka.shape)
  .extend(envFragments.clickhouse.shape);
export type EventsProjectorConfig = z.infer<typeof eventsProjectorConfig>;
