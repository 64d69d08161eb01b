import { z } from 'zod';
import { envFragments } from '@llm/config';

/** One base URL or a comma-separated list of a side's replicas (the gateway takes them in turn). */
const upstreamUrls = z.string()
  .transform((s) => s.split(',').map((u) => u.trim()).filter((u) => u !== ''))
  .pipe(z.array(z.string().url()).min(1));

export const gatewayConfig = envFragments.logging.extend(envFragments.http.shape).extend({
  COMMAND_URL: upstreamUrls,
  QUERY_URL: upstreamUrls,
  PROJECTOR_URL: upstreamUrls,
});
export type GatewayConfig = z.infer<typeof gatewayConfig>;
