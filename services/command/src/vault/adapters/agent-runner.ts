// The agent runner's HTTP API as the subscription-login routes use it (protocol: docs/architecture.md "Agent
// runner"). The runner is the operator's own service at AGENT_RUNNER_URL, not a user-supplied URL, so
// it is called directly rather than through the outbound guard. Nothing here logs: a status answer
// may carry a login. Every answer is checked before it is believed; what cannot be read is a 502.
import type { RunnerAttemptAnswer } from '@llm/account-model';
import { runnerAttemptStarted, runnerAttemptStatus, type RunnerAttemptStarted } from '@llm/contracts';
import { badGateway, unavailable, type AppError } from '@llm/errors';
import type { AgentRunnerOptions } from '../../agent-runner-config.ts';

/** Runner answers are small; anything bigger is not one. */
const MAX_ANSWER_BYTES = 256 * 1024;
const ERROR_MAX = 200;

const notConfigured = (): AppError => unavailable('agent_runner_not_configured', 'The agent runner is not configured (AGENT_RUNNER_URL).');
const failed = (why: string, cause?: unknown): AppError =>
  badGateway('agent_runner_failed', `The agent runner could not be used: ${why}.`, cause);

/** The started attempt, or a 502 when the answer is not one. */
export function parseStarted(json: unknown): RunnerAttemptStarted {
  const r = runnerAttemptStarted.safeParse(json);
  if (!r.success) throw failed('its answer to a start is not an attempt');
  return r.data;
}

/** Where an attempt stands, or a 502 when the answer is not readable. */
export function parseStatus(json: unknown): RunnerAttemptAnswer {
  const r = runnerAttemptStatus.safeParse(json);
  if (!r.success) throw failed('its answer about an attempt is not a status');
  const a = r.data;
  switch (a.state) {
    case 'pending': return { state: 'pending' };
    case 'succeeded': return { state: 'succeeded', login: a.login ?? undefined };
    default: return { state: a.state, error: a.error ? [...a.error].slice(0, ERROR_MAX).join('') : undefined };
  }
}

interface Answer { status: number; json: unknown }

export class AgentRunner {
  constructor(private readonly options: AgentRunnerOptions, private readonly fetchImpl: typeof fetch = fetch) {}

  /** `POST /v1/subscription-logins`: a new device sign-in. */
  async start(provider: string): Promise<RunnerAttemptStarted> {
    const a = await this.call('POST', '/v1/subscription-logins', { provider });
    if (a.status === 404) throw failed('it does not offer subscription logins (404)');
    return parseStarted(a.json);
  }

  /** `GET /v1/subscription-logins/{id}`; 404 = the runner does not know the attempt. */
  async status(attemptId: string): Promise<RunnerAttemptAnswer> {
    const a = await this.call('GET', `/v1/subscription-logins/${encodeURIComponent(attemptId)}`);
    return a.status === 404 ? { state: 'unknown' } : parseStatus(a.json);
  }

  /** `DELETE /v1/subscription-logins/{id}`; an attempt the runner no longer knows is cancelled already. */
  async cancel(attemptId: string): Promise<void> {
    await this.call('DELETE', `/v1/subscription-logins/${encodeURIComponent(attemptId)}`, undefined, false);
  }

  private async call(method: string, path: string, body?: unknown, readJson = true): Promise<Answer> {
    const base = this.options.baseUrl;
    if (base === undefined) throw notConfigured();
    let res: Response;
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      res = await this.fetchImpl(`${base}${path}`, {
        method, signal, redirect: 'error',
        headers: { Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      throw failed(signal.aborted ? 'no answer in time' : 'unreachable', causeOf(err));
    }
    if (res.status === 404) { await res.body?.cancel().catch(() => undefined); return { status: 404, json: undefined }; }
    if (res.status < 200 || res.status > 299) {
      await res.body?.cancel().catch(() => undefined);
      throw failed(`it answered ${res.status}`);
    }
    if (!readJson) { await res.body?.cancel().catch(() => undefined); return { status: res.status, json: undefined }; }
    if (Number(res.headers.get('content-length') ?? 0) > MAX_ANSWER_BYTES) { await res.body?.cancel().catch(() => undefined); throw failed('its answer is too large'); }
    let text: string;
    try { text = await res.text(); } catch (err) { throw failed(signal.aborted ? 'no answer in time' : 'its answer broke off', causeOf(err)); }
    if (text.length > MAX_ANSWER_BYTES) throw failed('its answer is too large');
    try { return { status: res.status, json: JSON.parse(text) as unknown }; } catch { throw failed('its answer is not JSON'); }
  }
}

/** Only the network error's code and name go to the log (the message of a body error could quote it). */
function causeOf(err: unknown): unknown {
  const e = err as { name?: unknown; cause?: { code?: unknown } } | undefined;
  return { name: typeof e?.name === 'string' ? e.name : 'Error', code: typeof e?.cause?.code === 'string' ? e.cause.code : undefined };
}
