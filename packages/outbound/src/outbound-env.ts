// The outbound guard's configuration as environment variables: a fragment each service composes
// into its own env schema (parsed once in main.ts), and the mapping to client options.
import { z } from 'zod';
import { parseAllowEntry } from './allow-list.ts';
import { OUTBOUND_DEFAULTS, type OutboundClientOptions } from './outbound-client.ts';

const millis = z.coerce.number().int().positive().max(10 * 60_000);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const csv = (s: string | undefined): string[] => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean);

export const outboundEnv = z.object({
  /** Whole outbound call, DNS to last byte. */
  OUTBOUND_TIMEOUT_MS: millis.default(OUTBOUND_DEFAULTS.timeoutMs),
  /** TCP connect of each hop. */
  OUTBOUND_CONNECT_TIMEOUT_MS: millis.default(OUTBOUND_DEFAULTS.connectTimeoutMs),
  /** Response body cap in bytes. */
  OUTBOUND_MAX_BYTES: z.coerce.number().int().positive().default(OUTBOUND_DEFAULTS.maxBytes),
  /** Comma list of private/loopback exceptions: host, host:port, ip, ip:port, [ipv6]:port, cidr. */
  OUTBOUND_ALLOW_HOSTS: z
    .string()
    .optional()
    .transform(csv)
    .superRefine((entries, ctx) => {
      for (const entry of entries) {
        if (!parseAllowEntry(entry)) ctx.addIssue({ code: 'custom', message: `'${entry}' is not a host, host:port, ip, ip:port, [ipv6]:port or CIDR` });
      }
    }),
  /** Permit plain http:// targets (development only). */
  OUTBOUND_ALLOW_INSECURE_HTTP: bool.default(false),
});

export type OutboundEnv = z.output<typeof outboundEnv>;

export function outboundOptionsFromEnv(env: OutboundEnv): OutboundClientOptions {
  return {
    timeoutMs: env.OUTBOUND_TIMEOUT_MS,
    connectTimeoutMs: env.OUTBOUND_CONNECT_TIMEOUT_MS,
    maxBytes: env.OUTBOUND_MAX_BYTES,
    allowPrivateHosts: env.OUTBOUND_ALLOW_HOSTS,
    allowInsecure: env.OUTBOUND_ALLOW_INSECURE_HTTP,
  };
}
