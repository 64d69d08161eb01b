// Each separately deployed service and the zod schema its main.ts parses process.env with: the
// deployment checks introspect these rather than keep their own lists of variable names.
import type { z } from 'zod';
import { commandConfig } from '../../services/command/src/config.ts';
import { gatewayConfig } from '../../services/gateway/src/config.ts';
import { accountsProjectorConfig } from '../../services/projector-accounts/src/config.ts';
import { eventsProjectorConfig } from '../../services/projector-events/src/config.ts';
import { spansProjectorConfig } from '../../services/projector-spans/src/config.ts';
import { usageProjectorConfig } from '../../services/projector-usage/src/config.ts';
import { evaluationsProjectorConfig } from '../../services/projector-evaluations/src/config.ts';
import { queryConfig } from '../../services/query/src/config.ts';
import { webhookDispatcherConfig } from '../../services/webhook-dispatcher/src/config.ts';

export const serviceSchemas: Record<string, z.ZodObject> = {
  command: commandConfig,
  query: queryConfig,
  gateway: gatewayConfig,
  'projector-spans': spansProjectorConfig,
  'projector-accounts': accountsProjectorConfig,
  'projector-events': eventsProjectorConfig,
  'projector-usage': usageProjectorConfig,
  'projector-evaluations': evaluationsProjectorConfig,
  'webhook-dispatcher': webhookDispatcherConfig,
};

/** Services that answer the public API and so need a Service (the gateway routes to them). */
export const httpServices = ['command', 'query', 'gateway', 'projector-spans'];

/** Variables the schema requires: no default, not optional. */
export const requiredKeys = (schema: z.ZodObject): string[] =>
  Object.entries(schema.shape).filter(([, s]) => !s.safeParse(undefined).success).map(([k]) => k);

/** The service a container runs, read from the built entry point its command names. */
export function serviceOfEntry(args: readonly string[]): string | undefined {
  for (const a of args) {
    const m = /^dist\/services\/([a-z0-9-]+)\/src\/main\.mjs$/.exec(a);
    if (m) return m[1];
  }
  return undefined;
}
