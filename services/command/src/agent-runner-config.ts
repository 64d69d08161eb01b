// Configuration of the agent runner the subscription-login routes call (docs/architecture.md "Agent runner").
// Unset: the deployment has no runner, and every route that needs one answers 503.
import { z } from 'zod';

const absoluteUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).transform((u) => u.replace(/\/+$/, ''));

export const agentRunnerEnv = z.object({
  /** Base URL of the agent runner (`https://runner.internal:8443`); its protocol is in docs/architecture.md. */
  AGENT_RUNNER_URL: absoluteUrl.optional(),
});
export type AgentRunnerEnv = z.output<typeof agentRunnerEnv>;

export interface AgentRunnerOptions {
  baseUrl?: string | undefined;
  /** One runner call, connect to last byte. */
  timeoutMs: number;
}

export const agentRunnerOptionsFromEnv = (env: AgentRunnerEnv): AgentRunnerOptions => ({ baseUrl: env.AGENT_RUNNER_URL, timeoutMs: 10_000 });
