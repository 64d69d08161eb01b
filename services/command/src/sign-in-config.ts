// Configuration of browser sessions and SSO sign-in on the command side, shared by the command
// service and the all-in-one process: the env fragment and its mapping to the routes' options.
import { z } from 'zod';
import { secretsKeyEnv, type SecretsKeyring } from '@llm/oidc';
import { outboundEnv, outboundOptionsFromEnv, type OutboundClientOptions } from '@llm/outbound';
import { sessionAssertionEnv, sessionEnv, sessionOptionsFromEnv, type SessionCodecOptions } from '@llm/web-session';
import { authMethodsEnv, deploymentMethodsFromEnv, type DeploymentMethods } from '@llm/auth-policy';
import { providerProbeEnv, providerProbeOptionsFromEnv, type ProviderProbeOptions } from './provider-probe-config.ts';
import { agentRunnerEnv, agentRunnerOptionsFromEnv, type AgentRunnerOptions } from './agent-runner-config.ts';
import { webhookEnv } from '@llm/webhooks';

const absoluteUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).transform((u) => u.replace(/\/+$/, ''));

export const signInEnv = sessionEnv
  .extend(sessionAssertionEnv.shape)
  .extend(secretsKeyEnv.shape)
  .extend(outboundEnv.shape)
  .extend(providerProbeEnv.shape)
  .extend(agentRunnerEnv.shape)
  .extend(authMethodsEnv.shape)
  // A test delivery (POST /webhooks/subscriptions/test) is bounded like the dispatcher's deliveries.
  .extend(webhookEnv.pick({ WEBHOOK_TIMEOUT_MS: true }).shape)
  .extend({
    /** Our public base URL, as browsers and identity providers reach it (the SSO redirect URI is built on it). Unset: taken from each request's Host (development only). */
    PUBLIC_BASE_URL: absoluteUrl.optional(),
    /** Where the browser lands after sign-in (the sign-in's return path is appended). Unset: this server. */
    AUTH_FRONTEND_URL: absoluteUrl.optional(),
  });
export type SignInEnv = z.output<typeof signInEnv>;

export interface SignInOptions {
  session: SessionCodecOptions;
  /** Secrets of the trusted session service whose signed assertions may add identities to a session; unset = none. */
  sessionAssertionSecrets?: string[] | undefined;
  secrets: SecretsKeyring;
  outbound: OutboundClientOptions;
  publicBaseUrl?: string | undefined;
  frontendUrl?: string | undefined;
  /** Sign-in methods the deployment offers outside organization policies. */
  deployment: DeploymentMethods;
  /** The provider probe's time limit and hosted base URLs (it calls out through the same guard). */
  providerProbe: ProviderProbeOptions;
  /** The agent runner of subscription logins (unset URL: those routes answer 503). */
  agentRunner: AgentRunnerOptions;
  /** The whole of one webhook test delivery (WEBHOOK_TIMEOUT_MS). */
  webhookTimeoutMs: number;
}

export const signInOptionsFromEnv = (env: SignInEnv): SignInOptions => ({
  session: sessionOptionsFromEnv(env),
  sessionAssertionSecrets: env.SESSION_ASSERTION_SECRETS,
  secrets: env.SECRETS_KEY,
  outbound: outboundOptionsFromEnv(env),
  publicBaseUrl: env.PUBLIC_BASE_URL,
  frontendUrl: env.AUTH_FRONTEND_URL,
  deployment: deploymentMethodsFromEnv(env),
  providerProbe: providerProbeOptionsFromEnv(env),
  agentRunner: agentRunnerOptionsFromEnv(env),
  webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
});
