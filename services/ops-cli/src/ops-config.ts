// The CLI's configuration: the Kafka variables every service reads (same names, same defaults), the
// broker of `npm start` when KAFKA_BROKERS is unset (as `npm run redrive`), and how long to wait for
// a broker before giving up.
import { z } from 'zod';
import { envFragments, parseConfig } from '@llm/config';
import { OpsFailure } from './ops-errors.ts';

export const opsConfigSchema = envFragments.kafka.extend({
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('silent'),
  /** A broker that does not answer within this is reported (exit 1) instead of retried for a minute. */
  OPS_CONNECT_TIMEOUT_MS: envFragments.positiveInt.max(600_000).default(5_000),
});
export type OpsConfig = z.infer<typeof opsConfigSchema>;

export function opsConfig(env: Record<string, string | undefined>): OpsConfig {
  const withDefault = { KAFKA_BROKERS: `127.0.0.1:${env.KAFKA_LOCAL_PORT || '19092'}`, ...Object.fromEntries(Object.entries(env).filter(([, v]) => v)) };
  const parsed = parseConfig(opsConfigSchema, withDefault);
  if (!parsed.ok) throw new OpsFailure('invalid_configuration', `invalid configuration: ${parsed.problems.join('; ')}`);
  return parsed.config;
}
