// Configuration of the provider probe: how long one probe may take, and where hosted providers'
// APIs live when a deployment reaches them through a proxy or a regional endpoint (tests point
// them at loopback servers the same way).
import { z } from 'zod';
import { HOSTED_KINDS, type HostedKind } from './accounts/domain/provider-probe.ts';

const absoluteUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' });

const baseUrls = z.partialRecord(z.enum(HOSTED_KINDS as [HostedKind, ...HostedKind[]]), absoluteUrl);

export const providerProbeEnv = z.object({
  /** The whole probe (resolve, connect, answer), as §8's 10 s. */
  PROVIDER_PROBE_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(10_000),
  /** JSON object: hosted kind → base URL of its API (`{"openai":"https://proxy.example.com/v1"}`). */
  PROVIDER_PROBE_BASE_URLS: z.string().optional().transform((s, ctx): Partial<Record<HostedKind, string>> => {
    if (s === undefined) return {};
    let json: unknown;
    try { json = JSON.parse(s); } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object of provider kind → base URL' });
      return z.NEVER;
    }
    const r = baseUrls.safeParse(json);
    if (!r.success) {
      for (const i of r.error.issues) ctx.addIssue({ code: 'custom', message: `${i.path.join('.') || '(value)'}: ${i.message}` });
      return z.NEVER;
    }
    return r.data;
  }),
});
export type ProviderProbeEnv = z.output<typeof providerProbeEnv>;

export interface ProviderProbeOptions {
  timeoutMs: number;
  baseUrls: Partial<Record<HostedKind, string>>;
}

export const providerProbeOptionsFromEnv = (env: ProviderProbeEnv): ProviderProbeOptions => ({
  timeoutMs: env.PROVIDER_PROBE_TIMEOUT_MS,
  baseUrls: env.PROVIDER_PROBE_BASE_URLS,
});
