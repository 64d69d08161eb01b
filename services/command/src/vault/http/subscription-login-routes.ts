// Subscription logins (reference accounts §7): the browser's device sign-in (start, poll, cancel an
// attempt on the agent runner) and the runner's push of a refreshed login and failure report. The
// login lives sealed in the secret's data; every change opens the secret, asks the pure rules
// (@llm/account-model subscription-login.ts) and records the new data against the version it read —
// when another change lands first, it reads and decides again.
import type { Request, RequestHandler } from 'express';
import { decideCancel, decideFailure, decidePoll, decidePush, decideStart, isUuid, type LoginAttempt, type LoginFields, loginFieldsOf, readSecret, type RunnerAttemptAnswer, type SecretRow, refuse } from '@llm/account-model';
import {
  subscriptionLoginFailure, subscriptionLoginPush,
  type LoginAttemptView, type SubscriptionLoginFailureView, type SubscriptionLoginPushView,
} from '@llm/contracts';
import { notFound } from '@llm/errors';
import { RequestValidationError, validate, type Handlers, type Guards } from '@llm/http';
import type { SecretsKeyring } from '@llm/oidc';
import type { Pool } from '@llm/postgres';
import type { AccountCommands } from '../../accounts/adapters/account-commands.ts';
import type { AgentRunner } from '../adapters/agent-runner.ts';
import { Vault, type SecretData } from '../adapters/vault.ts';

export interface SubscriptionLoginDeps {
  pool: Pool;
  commands: AccountCommands;
  keyring: SecretsKeyring;
  runner: AgentRunner;
  now?: () => number;
}

/** Re-reads after a concurrent change before giving up (each costs one projector round trip). */
const MAX_TRIES = 5;
/** §7: a poll interval is at least 2 s, whatever the runner suggests. */
const MIN_POLL_MS = 2_000;
const PROVIDER = 'chatgpt';

const connectionNotFound = () => notFound('subscription_not_found', 'Subscription connection not found.');
const attemptNotFound = () => notFound('login_attempt_not_found', 'Login attempt not found. Start a new sign-in.');

/** One step of a change: the data to record (none = nothing to write) and what to answer. */
interface Step<R> { next?: LoginFields | undefined; result: R }

const view = (attemptId: string, state: LoginAttemptView['state'], over: Partial<LoginAttemptView> = {}): LoginAttemptView => ({
  attempt_id: attemptId, state, user_code: null, verification_uri: null, expires_at: null, poll_after_ms: null, error: null, ...over,
});
const pendingView = (a: LoginAttempt): LoginAttemptView => view(a.id, 'pending', {
  user_code: a.user_code, verification_uri: a.verification_uri, expires_at: a.expires_at, poll_after_ms: Math.max(MIN_POLL_MS, a.poll_after_ms),
});

export function subscriptionLoginRoutes(deps: SubscriptionLoginDeps, guards: Guards<'browser' | 'runner'>): Handlers {
  const { pool, runner } = deps;
  const now = deps.now ?? Date.now;
  const vault = new Vault(pool, deps.keyring);

  function secretIdOf(req: Request): string {
    const id = String(req.params.secret_id ?? '');
    if (!isUuid(id)) throw new RequestValidationError([{ loc: ['path', 'secret_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' }]);
    return id;
  }

  /** The subscription secret in clear, or 404 (missing, another kind, or its key shredded). */
  async function load(req: Request, id: string): Promise<{ row: SecretRow; key: Buffer; data: SecretData }> {
    const row = await readSecret(pool, req.scope.projectId, id);
    if (!row || row.kind !== 'subscription_provider') throw connectionNotFound();
    const opened = await vault.open(row);
    if (!opened) throw connectionNotFound();
    return { row, ...opened };
  }

  /** Read, decide, record against the version read; on a concurrent change, all of it again. */
  async function change<R>(req: Request, id: string, decide: (fields: LoginFields) => Step<R> | Promise<Step<R>>): Promise<R> {
    const retry = { on: ['secret_changed'] as const, maxAttempts: MAX_TRIES, exhausted: () => refuse('secret_changed', 'The subscription connection keeps changing; retry.') };
    return deps.commands.runAtVersion<'accounts.secret.updated', R>(req, retry, async () => {
      const { row, key, data } = await load(req, id);
      const step = await decide(loginFieldsOf(data));
      if (!step.next) return { done: step.result };
      const secret = vault.info({
        id: row.id, projectId: row.project_id, slug: row.slug, kind: 'subscription_provider', name: row.name, description: row.description,
        data: { ...data, ...step.next }, key, writeOnly: row.write_only, ...(row.managed_by ? { managedBy: row.managed_by } : {}),
      });
      return { write: vault.change(row.project_id, 'accounts.secret.updated', { secret }, row.id, row.version), value: step.result };
    });
  }

  const start: RequestHandler = async (req, res) => {
    const id = secretIdOf(req);
    let ours: LoginAttempt | undefined;
    try {
      const answer = await change(req, id, async (fields): Promise<Step<LoginAttemptView>> => {
        const d = decideStart(fields, now());
        if (d.outcome === 'existing') {
          // A concurrent start stored its attempt first: ours is not needed on the runner.
          if (ours && ours.id !== d.attempt.id) { const loser = ours; ours = undefined; await runner.cancel(loser.id).catch(() => undefined); }
          return { result: pendingView(d.attempt) };
        }
        ours ??= await runner.start(PROVIDER);
        return { next: { ...fields, login_attempt: ours }, result: pendingView(ours) };
      });
      ours = undefined;
      res.status(200).json(answer);
    } finally {
      // Stored nowhere (the change failed): do not leave it running on the runner.
      if (ours) await runner.cancel(ours.id).catch(() => undefined);
    }
  };

  const poll: RequestHandler = async (req, res) => {
    const id = secretIdOf(req);
    const attemptId = String(req.params.attempt_id ?? '');
    const { data } = await load(req, id);
    if (loginFieldsOf(data).login_attempt?.id !== attemptId) throw attemptNotFound();
    const answer: RunnerAttemptAnswer = await runner.status(attemptId);
    const result = await change(req, id, (fields): Step<LoginAttemptView> => {
      const d = decidePoll(fields, attemptId, answer, now());
      switch (d.outcome) {
        case 'not_found': throw attemptNotFound();
        case 'pending': return { result: pendingView(d.attempt) };
        case 'succeeded': return { next: d.next, result: view(attemptId, 'succeeded') };
        case 'ended': return { next: d.next, result: view(attemptId, d.state, { error: d.error ?? null }) };
      }
    });
    res.status(200).json(result);
  };

  const cancel: RequestHandler = async (req, res) => {
    const id = secretIdOf(req);
    const attemptId = String(req.params.attempt_id ?? '');
    const { data } = await load(req, id);
    if (loginFieldsOf(data).login_attempt?.id !== attemptId) throw attemptNotFound();
    await runner.cancel(attemptId);
    const result = await change(req, id, (fields): Step<LoginAttemptView> => ({ next: decideCancel(fields, attemptId).next, result: view(attemptId, 'cancelled') }));
    res.status(200).json(result);
  };

  const push: RequestHandler = async (req, res) => {
    const id = secretIdOf(req);
    const body = validate(subscriptionLoginPush, req.body);
    const result = await change(req, id, (fields): Step<SubscriptionLoginPushView> => {
      const d = decidePush(fields, { login: body.login, generation: body.generation }, now());
      switch (d.outcome) {
        case 'accepted': return { next: d.next, result: { version: d.version, generation: d.generation, updated: true, stale: false } };
        case 'stale': return { result: { version: d.version, generation: d.generation, updated: false, stale: true, ...(d.login ? { login: d.login } : {}) } };
        case 'refused': return { result: { version: d.version, generation: d.generation, updated: false, stale: false, reason: d.reason } };
      }
    });
    res.status(200).json(result);
  };

  const failure: RequestHandler = async (req, res) => {
    const id = secretIdOf(req);
    const body = validate(subscriptionLoginFailure, req.body);
    const result = await change(req, id, (fields): Step<SubscriptionLoginFailureView> => {
      const d = decideFailure(fields, body);
      return d.outcome === 'stale'
        ? { result: { stale: true, version: d.version, generation: d.generation, ...(d.login ? { login: d.login } : {}) } }
        : { next: d.next, result: { stale: false, version: d.version, generation: d.generation } };
    });
    res.status(200).json(result);
  };

  return {
    'secrets.login_attempts.start': [...guards.browser, start],
    'secrets.login_attempts.fetch': [...guards.browser, poll],
    'secrets.login_attempts.cancel': [...guards.browser, cancel],
    'secrets.subscription_login.push': [...guards.runner, push],
    'secrets.subscription_login.failure': [...guards.runner, failure],
  };
}
