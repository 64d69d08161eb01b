// The one way an account change happens: decide early with the aggregate's own rules on the state
// its reader loads (a fast, exact answer in the common case), append the event, wait for the
// projector's position, and return the projector's typed outcome (the authority: it decides again
// on the ordered log, so a race lost meanwhile is still a rejection).
import { accepted, type AccountEvent, aggregateOf, decide, type Decision, type EventOf, loadState, type Rejection, type RejectionCode, rejectionError } from '@llm/account-model';
import { readEventOutcome } from '@llm/accounts-read';
import { AppError, sleep, unavailable } from '@llm/errors';
import type { EventPayloads } from '@llm/events';
import type { Pool } from '@llm/postgres';
import type { Request } from 'express';
import type { AccountAppender, AccountEventMeta, AccountsEventType } from './account-appender.ts';

export type CommandOutcome = { status: 'applied' } | Rejection<RejectionCode>;

export interface AccountChange<T extends AccountsEventType> {
  type: T;
  /** Partition key: every event of the aggregate (or of the rule's scope) goes to one partition. */
  key: string;
  payload: EventPayloads[T];
  meta: AccountEventMeta;
}

export interface AccountCommandOptions {
  /** How long to wait for the projector before answering 503 projection_lag. */
  timeoutMs?: number;
}

export class AccountCommands {
  private readonly timeoutMs: number;

  constructor(readonly appender: AccountAppender, private readonly pool: Pool, opts: AccountCommandOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  /** What the aggregate's rules say about the change on the state as projected now. */
  async decideEarly<T extends AccountsEventType>(change: AccountChange<T>): Promise<Decision<RejectionCode>> {
    const name = aggregateOf(change.type);
    if (name === undefined) return accepted;
    const m = change.meta;
    const draft = {
      type: change.type, payload: change.payload, projectId: m.projectId ?? '', organizationId: m.organizationId ?? '',
      actorId: m.actorId ?? 'admin', expectedVersion: m.expectedVersion ?? 0, timeUs: Date.now() * 1000,
    } as AccountEvent<T> as unknown as EventOf<typeof name>;
    return decide(name, draft, await loadState(this.pool, name, draft));
  }

  /**
   * Early answer, append, wait, typed outcome. Throws 503 `projection_lag` when the projector does
   * not reach the event in time, and 422 `unstorable` when the store could not hold its data.
   */
  async appendAndAwait<T extends AccountsEventType>(change: AccountChange<T>): Promise<CommandOutcome> {
    const early = await this.decideEarly(change);
    if (early.status === 'rejected') return early;
    const eventId = await this.appender.append(change.type, change.key, change.payload, change.meta);
    const deadline = Date.now() + this.timeoutMs;
    for (let i = 0; Date.now() < deadline; i++) {
      const outcome = await readEventOutcome(this.pool, eventId);
      if (outcome?.status === 'rejected' && outcome.code === 'unstorable') throw rejectionError(outcome);
      if (outcome) return outcome;
      await sleep(Math.min(5 * 2 ** i, 50));
    }
    throw projectionLag();
  }

  /** appendAndAwait that answers a rejection with its code's presentation. */
  async commit<T extends AccountsEventType>(change: AccountChange<T>): Promise<void> {
    const outcome = await this.appendAndAwait(change);
    if (outcome.status === 'rejected') throw rejectionError(outcome);
  }

  /** A dry run: the write's early answer, thrown as its presentation when refused (nothing is appended). */
  async check<T extends AccountsEventType>(origin: WriteOrigin, w: AccountWrite<T>): Promise<void> {
    orThrow(await this.decideEarly(changeOf(origin, w)));
  }

  /**
   * The one account write of a request: its metadata from the request (caller's scope, request id,
   * actor; `w.meta` over it), decided early, appended, awaited, and a rejection answered with its
   * code's presentation. A declared `compensate` runs when the change is refused or never appended.
   */
  async run<T extends AccountsEventType>(origin: WriteOrigin, w: AccountWrite<T>, opts: { compensate?: () => Promise<unknown> } = {}): Promise<void> {
    const change = changeOf(origin, w);
    const outcome = opts.compensate ? await withCompensation(() => this.appendAndAwait(change), opts.compensate) : await this.appendAndAwait(change);
    if (outcome.status === 'rejected') throw rejectionError(outcome);
  }

  /**
   * A write decided on a version read: `attempt(n)` reads the state and declares the change at the
   * version it read (or `{ done }`: nothing to write). A rejection named in `retry.on` (another
   * change took that version meanwhile) reads and decides again, bounded; any other rejection, and
   * the last conflict, is answered with its presentation. `retry.compensate` runs once when the
   * write finally fails (not on projection_lag: the change will still apply).
   */
  async runAtVersion<T extends AccountsEventType, V>(origin: WriteOrigin, retry: VersionRetry, attempt: (n: number) => Promise<{ write: AccountWrite<T>; value: V } | { done: V }>): Promise<V> {
    const tries = (): Promise<V> => untilApplied(retry.on, async (n) => {
      const a = await attempt(n);
      if ('done' in a) return a;
      return { outcome: await this.appendAndAwait(changeOf(origin, a.write)), value: a.value };
    }, retry);
    if (!retry.compensate) return tries();
    try {
      return await tries();
    } catch (err) {
      if (!isProjectionLag(err)) await retry.compensate().catch(() => undefined);
      throw err;
    }
  }
}

/** Throws the rejection as its HTTP error (rules checked before any event, e.g. the command-only ones). */
export function orThrow(d: Decision<RejectionCode>): void {
  if (d.status === 'rejected') throw rejectionError(d);
}

/** The one 503 of a change appended but not projected yet: it will apply; the client reads again shortly. */
export function projectionLag(): AppError {
  return unavailable('projection_lag', 'The change was accepted but is not visible yet; retry the read shortly.');
}

/** Whether `err` is that 503: the change is in the log and will still apply. */
export function isProjectionLag(err: unknown): boolean {
  return err instanceof AppError && err.code === 'projection_lag';
}

/**
 * A change that needs something prepared before its event (a sealed key, a stored secret): `undo`
 * removes it when the change is refused or never appended; when the change was appended but is not
 * projected yet (projection_lag) it stays, because the change will still apply and needs it. Undo
 * failures are swallowed: the caller answers with the change's own outcome or error.
 */
export async function withCompensation(record: () => Promise<CommandOutcome>, undo: () => Promise<unknown>): Promise<CommandOutcome> {
  let outcome: CommandOutcome;
  try {
    outcome = await record();
  } catch (err) {
    if (!isProjectionLag(err)) await undo().catch(() => undefined);
    throw err;
  }
  if (outcome.status === 'rejected') await undo().catch(() => undefined);
  return outcome;
}

/** The origin of an operator's write (admin routes): the request's id, the operator as actor. */
export const operatorOrigin = (req: Request): AccountEventMeta => ({ requestId: req.id, actorId: 'admin' });

/** Who asks for a write: a request (its scope and id make the metadata) or, outside a request, the metadata itself. */
export type WriteOrigin = Request | AccountEventMeta;

/** One account change as a route declares it; the handler adds the metadata. */
export interface AccountWrite<T extends AccountsEventType> {
  type: T;
  /** Partition key (the aggregate's stream key); also the event's aggregate id unless `meta` names one. */
  key: string;
  payload: EventPayloads[T];
  /** Over the metadata the origin gives: the version read, another project or organization, the aggregate id. */
  meta?: Partial<AccountEventMeta>;
}

export interface VersionRetry extends RetryOptions {
  /** The codes that mean "another change took the version read": read and decide again. */
  on: readonly RejectionCode[];
  /** Undoes what was prepared for the write (a stored secret value) when it finally fails. */
  compensate?: () => Promise<unknown>;
}

function changeOf<T extends AccountsEventType>(origin: WriteOrigin, w: AccountWrite<T>): AccountChange<T> {
  const meta = 'requestId' in origin ? { aggregateId: w.key, ...origin, ...w.meta } : requestMeta(origin, w.key, w.meta);
  return { type: w.type, key: w.key, payload: w.payload, meta };
}

/** How many times a change decided on the state as read is tried when other changes keep winning its version. */
export const MAX_CONFLICT_ATTEMPTS = 5;

/** One try of a change decided on the state as read: its outcome and the value to return once applied, or `done` to stop without recording. */
export type Attempt<T> = { outcome: CommandOutcome; value: T } | { done: T };

export interface RetryOptions {
  /** Tries in all (default MAX_CONFLICT_ATTEMPTS). */
  maxAttempts?: number;
  /** The error when every try lost to another change (default: the last conflict's own rejection); it may read what won. */
  exhausted?: (last: Rejection<RejectionCode>) => AppError | Promise<AppError>;
  /** A random pause before each new try, up to `jitterMs` × tries so far (commits racing on one head). */
  jitterMs?: number;
}

/**
 * The one retry of account writes: `attempt(n)` reads the state, decides and records the change at
 * the version it read. A rejection named in `conflicts` (another change took that version
 * meanwhile) reads and decides again, so a concurrent change is never silently undone; any other
 * rejection is thrown as its HTTP error, and so is the last conflict when the tries run out.
 */
export async function untilApplied<T>(conflicts: readonly RejectionCode[], attempt: (n: number) => Promise<Attempt<T>>, opts: RetryOptions = {}): Promise<T> {
  const max = opts.maxAttempts ?? MAX_CONFLICT_ATTEMPTS;
  for (let n = 1; ; n++) {
    const a = await attempt(n);
    if ('done' in a) return a.done;
    if (a.outcome.status === 'applied') return a.value;
    if (!conflicts.includes(a.outcome.code)) throw rejectionError(a.outcome);
    if (n >= max) throw opts.exhausted ? await opts.exhausted(a.outcome) : rejectionError(a.outcome);
    if (opts.jitterMs) await sleep(Math.random() * opts.jitterMs * n);
  }
}

/**
 * An account event's metadata for a request in the caller's scope: the request id, the caller's
 * organization, project and user as actor, and the aggregate the change is about; `over` replaces
 * any of them (another project in the path, the version read).
 */
export function requestMeta(req: Request, aggregateId: string, over: Partial<AccountEventMeta> = {}): AccountEventMeta {
  return { requestId: req.id, organizationId: req.scope.organizationId, projectId: req.scope.projectId, aggregateId, actorId: req.scope.userId, ...over };
}
