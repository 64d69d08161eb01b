import { z } from 'zod';
import { envFragments } from '@llm/config';

export const gatewayConfig = envFragments.logging.extend(envFragments.http.shape).extend({
  COMMAND_URL: z.string().url(),
  QUERY_URL: z.string().url(),
  PROJECTOR_URL: z.string().url(),
});
export type GatewayConfig = z.infer<typeof gatewayConfig>;
