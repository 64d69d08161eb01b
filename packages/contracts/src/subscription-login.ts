// Subscription logins (reference accounts §7): the runner's push and failure bodies, the answers of
// the attempt routes, and the agent runner's own answers (the protocol in docs/architecture.md, "Agent runner").
// A login is free-form JSON here; whether it is usable is the account model's rule.
import { z } from 'zod';
import { jsonObject, text, TEXT_LIMITS } from './text.ts';

const int = z.number().int().min(0, { error: 'must be 0 or more (versions and generations count up from 0)' });
const login = jsonObject.refine((o) => Object.keys(o).length > 0, { error: 'must not be empty' });

/** POST /secrets/{id}/subscription-login: a refreshed login pushed by the runner. */
export const subscriptionLoginPush = z.strictObject({ login, version: int, generation: int });
export type SubscriptionLoginPush = z.infer<typeof subscriptionLoginPush>;

/** POST /secrets/{id}/subscription-login/failure: the runner's login stopped working. */
export const subscriptionLoginFailure = z.strictObject({ version: int, generation: int, reason: text({ max: 200 }) });
export type SubscriptionLoginFailure = z.infer<typeof subscriptionLoginFailure>;

export const LOGIN_ATTEMPT_STATES = ['pending', 'succeeded', 'failed', 'expired', 'cancelled'] as const;
export type LoginAttemptState = (typeof LOGIN_ATTEMPT_STATES)[number];

/** SubscriptionLoginAttemptResponse: null fields are sent as `null` on the three attempt routes. */
export interface LoginAttemptView {
  attempt_id: string;
  state: LoginAttemptState;
  user_code: string | null;
  verification_uri: string | null;
  expires_at: string | null;
  poll_after_ms: number | null;
  error: string | null;
}

/** SubscriptionLoginPushResponse (nulls omitted). */
export interface SubscriptionLoginPushView {
  version: number; generation: number; updated: boolean; stale: boolean;
  login?: Record<string, unknown>; reason?: string;
}

/** The failure report's answer (nulls omitted). */
export interface SubscriptionLoginFailureView { stale: boolean; version: number; generation: number; login?: Record<string, unknown> }

// The agent runner's answers. Loose objects: a newer runner may add fields, which are ignored.
const runnerText = (max: number) => z.string().min(1).max(max);

/** `POST {runner}/v1/subscription-logins` → the attempt the browser shows. */
export const runnerAttemptStarted = z.object({
  id: runnerText(TEXT_LIMITS.id).regex(/^[A-Za-z0-9._~-]+$/, 'must be URL-safe'),
  expires_at: z.iso.datetime({ offset: true }),
  user_code: runnerText(64),
  verification_uri: z.url({ protocol: /^https?$/ }).max(TEXT_LIMITS.url),
  poll_after_ms: int.min(0).max(3_600_000),
});
export type RunnerAttemptStarted = z.infer<typeof runnerAttemptStarted>;

/** `GET {runner}/v1/subscription-logins/{id}` → where the device sign-in stands. */
export const runnerAttemptStatus = z.object({
  state: z.enum(LOGIN_ATTEMPT_STATES),
  login: z.record(z.string(), z.unknown()).nullish(),
  error: z.string().max(10_000).nullish(),
});
export type RunnerAttemptStatus = z.infer<typeof runnerAttemptStatus>;
