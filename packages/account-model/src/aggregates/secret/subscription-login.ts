// Subscription logins (reference accounts §7): the rules of the login stored (sealed) on a
// `subscription_provider` secret. Pure: the command reads the secret, asks these rules, and writes
// the answer back against the version it read (a change landing first means: read and decide again),
// which is how §7's "decided under a row lock" holds on an event log.

export type LoginState = 'pending_login' | 'ready' | 'needs_login';
export type Login = Record<string, unknown>;

/** A device sign-in the runner started: what the browser shows until it ends. */
export interface LoginAttempt { id: string; expires_at: string; user_code: string; verification_uri: string; poll_after_ms: number }

/** The server-owned login fields of a subscription secret's data. */
export interface LoginFields {
  login?: Login | undefined;
  login_version: number;
  login_generation: number;
  login_state: LoginState;
  login_error?: string | undefined;
  login_attempt?: LoginAttempt | undefined;
}

/** What a new subscription secret starts with. */
export const INITIAL_LOGIN_FIELDS: LoginFields = { login_version: 0, login_generation: 0, login_state: 'pending_login' };

const AUTH_CLAIM = 'https://api.openai.com/auth';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (v: unknown): number => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0);
const STATES: readonly LoginState[] = ['pending_login', 'ready', 'needs_login'];

function asAttempt(v: unknown): LoginAttempt | undefined {
  if (!isObject(v)) return undefined;
  const { id, expires_at, user_code, verification_uri, poll_after_ms } = v;
  if (typeof id !== 'string' || typeof expires_at !== 'string' || typeof user_code !== 'string' || typeof verification_uri !== 'string' || typeof poll_after_ms !== 'number') return undefined;
  return { id, expires_at, user_code, verification_uri, poll_after_ms };
}

/** The login fields of stored data, read defensively (an older row may lack some). */
export function loginFieldsOf(data: Record<string, unknown>): LoginFields {
  const state = STATES.find((s) => s === data.login_state);
  return {
    login: isObject(data.login) ? data.login : undefined,
    login_version: count(data.login_version),
    login_generation: count(data.login_generation),
    login_state: state ?? (isObject(data.login) ? 'ready' : 'pending_login'),
    login_error: typeof data.login_error === 'string' ? data.login_error : undefined,
    login_attempt: asAttempt(data.login_attempt),
  };
}

function base64UrlJson(part: string): unknown {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(part)) return undefined;
  try { return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')); } catch { return undefined; }
}

/** The ChatGPT account a login's access token names (its JWT payload claim), if it names one. */
export function accessTokenAccount(access: unknown): string | undefined {
  if (typeof access !== 'string') return undefined;
  const parts = access.split('.');
  if (parts.length !== 3 || parts.some((p) => p === '')) return undefined;
  const payload = base64UrlJson(parts[1]!);
  const auth = isObject(payload) ? payload[AUTH_CLAIM] : undefined;
  const id = isObject(auth) ? auth.chatgpt_account_id : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The account a stored login belongs to: its `accountId`, else the one its access token names. */
export function loginAccount(login: Login): string | undefined {
  return typeof login.accountId === 'string' && login.accountId !== '' ? login.accountId : accessTokenAccount(login.access);
}

/** §7 "usable login": a ChatGPT access JWT naming an account (matching `accountId` if given), a refresh token, a future expiry. */
export function isUsableLogin(login: unknown, nowMs: number): login is Login {
  if (!isObject(login)) return false;
  const account = accessTokenAccount(login.access);
  if (account === undefined) return false;
  if (login.accountId !== undefined && login.accountId !== account) return false;
  if (typeof login.refresh !== 'string' || login.refresh.trim() === '') return false;
  // typeof rules out booleans (and numeric strings): only an integer count of epoch milliseconds.
  return typeof login.expires === 'number' && Number.isSafeInteger(login.expires) && login.expires > nowMs;
}

/** An attempt is live while its `expires_at` is in the future. */
export function isLiveAttempt(attempt: LoginAttempt | undefined, nowMs: number): attempt is LoginAttempt {
  if (!attempt) return false;
  const at = Date.parse(attempt.expires_at);
  return Number.isFinite(at) && at > nowMs;
}

export type PushRefusal = 'no_login' | 'invalid_login' | 'wrong_generation' | 'other_account' | 'same_login' | 'older_login';

export type PushDecision =
  | { outcome: 'accepted'; next: LoginFields; version: number; generation: number }
  | { outcome: 'stale'; version: number; generation: number; login: Login | undefined }
  | { outcome: 'refused'; reason: PushRefusal; version: number; generation: number };

/** The runner pushes a refreshed login: §7's decision order, first match wins. */
export function decidePush(stored: LoginFields, push: { login: Login; generation: number }, nowMs: number): PushDecision {
  const version = stored.login_version;
  const generation = stored.login_generation;
  const refuse = (reason: PushRefusal): PushDecision => ({ outcome: 'refused', reason, version, generation });
  const current = stored.login;
  if (!current) return refuse('no_login');
  if (!isUsableLogin(push.login, nowMs)) return refuse('invalid_login');
  if (push.generation < generation) return { outcome: 'stale', version, generation, login: current };
  if (push.generation !== generation) return refuse('wrong_generation');
  const storedAccount = loginAccount(current);
  if (storedAccount !== undefined && storedAccount !== accessTokenAccount(push.login.access)) return refuse('other_account');
  if (push.login.refresh === current.refresh) return refuse('same_login');
  const expires = push.login.expires;
  if (typeof expires !== 'number' || (typeof current.expires === 'number' && expires < current.expires)) return refuse('older_login');
  const next: LoginFields = { ...stored, login: push.login, login_version: version + 1, login_state: 'ready', login_error: undefined };
  return { outcome: 'accepted', next, version: version + 1, generation };
}

export type FailureDecision =
  | { outcome: 'stale'; version: number; generation: number; login: Login | undefined }
  | { outcome: 'recorded'; next: LoginFields; version: number; generation: number };

export const FAILURE_REASON_MAX = 200;

/** The runner reports that its login stopped working: stale when a newer login is stored, else the secret needs a login. */
export function decideFailure(stored: LoginFields, report: { version: number; generation: number; reason: string }): FailureDecision {
  const version = stored.login_version;
  const generation = stored.login_generation;
  if (generation > report.generation || version > report.version) return { outcome: 'stale', version, generation, login: stored.login };
  const next: LoginFields = { ...stored, login_state: 'needs_login', login_error: [...report.reason].slice(0, FAILURE_REASON_MAX).join('') };
  return { outcome: 'recorded', next, version, generation };
}

/** What the runner said about an attempt (`unknown`: it does not know the id). */
export type RunnerAttemptAnswer =
  | { state: 'unknown' }
  | { state: 'pending' }
  | { state: 'succeeded'; login?: unknown }
  | { state: 'failed' | 'expired' | 'cancelled'; error?: string | undefined };

export type PollDecision =
  | { outcome: 'not_found' }
  | { outcome: 'pending'; attempt: LoginAttempt }
  | { outcome: 'succeeded'; next?: LoginFields }
  | { outcome: 'ended'; state: 'failed' | 'expired' | 'cancelled'; error: string | undefined; next?: LoginFields };

export const ATTEMPT_UNKNOWN_ERROR = 'attempt not found; try again';

/** The browser polls attempt `attemptId`; the runner answered `answer`. */
export function decidePoll(stored: LoginFields, attemptId: string, answer: RunnerAttemptAnswer, nowMs: number): PollDecision {
  const usable = answer.state === 'succeeded' && isUsableLogin(answer.login, nowMs) ? answer.login as Login : undefined;
  // The same login already stored (this poll's twin got there first): nothing to write.
  if (usable && stored.login && usable.refresh === stored.login.refresh) return { outcome: 'succeeded' };
  const attempt = stored.login_attempt;
  if (!attempt || attempt.id !== attemptId) return { outcome: 'not_found' };
  const cleared: LoginFields = { ...stored, login_attempt: undefined };
  switch (answer.state) {
    case 'pending': return { outcome: 'pending', attempt };
    case 'unknown': return { outcome: 'ended', state: 'failed', error: ATTEMPT_UNKNOWN_ERROR, next: cleared };
    case 'succeeded':
      if (!usable) return { outcome: 'ended', state: 'failed', error: 'invalid_login', next: cleared };
      return {
        outcome: 'succeeded',
        next: { ...cleared, login: usable, login_version: stored.login_version + 1, login_generation: stored.login_generation + 1, login_state: 'ready', login_error: undefined },
      };
    case 'failed': case 'expired': case 'cancelled':
      return { outcome: 'ended', state: answer.state, error: answer.error, next: cleared };
    default: return assertNever(answer);
  }
}

/** The browser cancels attempt `attemptId`: cleared when it is still the stored one. */
export function decideCancel(stored: LoginFields, attemptId: string): { next?: LoginFields } {
  return stored.login_attempt?.id === attemptId ? { next: { ...stored, login_attempt: undefined } } : {};
}

/** A start: a live stored attempt wins; otherwise `ours` (once the runner started it) is stored. */
export function decideStart(stored: LoginFields, nowMs: number): { outcome: 'existing'; attempt: LoginAttempt } | { outcome: 'start' } {
  return isLiveAttempt(stored.login_attempt, nowMs) ? { outcome: 'existing', attempt: stored.login_attempt } : { outcome: 'start' };
}

function assertNever(x: never): never {
  throw new Error(`unexpected runner answer ${JSON.stringify(x)}`);
}
