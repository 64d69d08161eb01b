// Read events (`traces.fetched`, `traces.queried`) appended to platform.events.v1 without slowing the
// read: `record` only encodes and queues (it never waits for Kafka and never throws); one sender
// drains the queue in batches behind the response. The queue is bounded (records queued + in
// flight): what cannot be recorded — queue full, a send Kafka refused, a record after close — is
// counted in /metrics and logged, never silently dropped.
import { encodeEvent, uuidv7, type Topics } from '@llm/events';
import type { OutgoingRecord, Producer } from '@llm/kafka';
import type { Logger } from '@llm/logging';
import { counter } from '@llm/metrics';

const recorded = counter('query_read_events_recorded_total', 'Read events (traces.fetched, traces.queried) appended to the platform events topic.');
const lost = counter('query_read_events_lost_total', 'Read events that could not be recorded (queue full, send failed, or after shutdown); each loss is also logged.');

/** Ids listed in a read event's attributes at most (the reference's cap). */
export const READ_EVENT_MAX_IDS = 1000;

export interface ReadEvent {
  projectId: string;
  organizationId: string;
  userId: string;
  /** The HTTP request id (a UUID, or mapped to one by the events projector). */
  requestId: string;
  eventType: 'traces.fetched' | 'traces.queried';
  /** Everything but user_id, which is always added. */
  attributes: Record<string, unknown>;
}

export interface EventRecorder {
  /** Queues one event; returns at once, whatever happens to it later. */
  record(e: ReadEvent): void;
  /** Sends what is queued and stops accepting events (shutdown, before the producer closes). */
  close(): Promise<void>;
}

export interface EventRecorderOptions {
  producer: Producer;
  topics: Topics;
  log: Logger;
  /** Records queued or in flight at most (default 10,000). */
  maxPending?: number;
  /** Records per send (default 500). */
  maxBatch?: number;
}

export function createEventRecorder(o: EventRecorderOptions): EventRecorder {
  const log = o.log.child({ component: 'read-events' });
  const maxPending = o.maxPending ?? 10_000;
  const maxBatch = o.maxBatch ?? 500;
  let queue: OutgoingRecord[] = [];
  let inFlight = 0;
  let sender: Promise<void> | undefined;
  let closed = false;

  // Losses to a full queue come in bursts: counted at once, logged at most once a second.
  let unlogged = 0;
  let logTimer: NodeJS.Timeout | undefined;
  const logLosses = (): void => {
    logTimer = undefined;
    if (unlogged === 0) return;
    log.error({ lost: unlogged, maxPending }, 'read events not recorded: the queue to Kafka is full (counted in query_read_events_lost_total)');
    unlogged = 0;
  };
  function lose(n: number, reason: string, err?: unknown): void {
    lost(n);
    if (err !== undefined || reason !== 'queue full') { log.error({ err, lost: n, reason }, 'read events not recorded (counted in query_read_events_lost_total)'); return; }
    unlogged += n;
    if (!logTimer) { logTimer = setTimeout(logLosses, 1000); logTimer.unref(); }
  }

  async function drain(): Promise<void> {
    // Behind the response: the request that queued the first record never runs the producer.
    await new Promise((r) => setImmediate(r));
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      inFlight = batch.length;
      try {
        await o.producer.send(o.topics.platform, batch);
        recorded(batch.length);
      } catch (err) {
        lose(batch.length, 'send failed', err);
      } finally {
        inFlight = 0;
      }
    }
    sender = undefined;
  }

  return {
    record(e) {
      try {
        if (closed) { lose(1, 'recorder closed'); return; }
        if (queue.length + inFlight >= maxPending) { lose(1, 'queue full'); return; }
        const now = Date.now();
        const value = encodeEvent('platform.event.recorded', {
          event_type: e.eventType, request_type: 'unknown', status_code: '', status_message: '',
          attributes_json: JSON.stringify({ user_id: e.userId || null, ...e.attributes }), user_id: e.userId,
        }, { eventId: uuidv7(now), projectId: e.projectId, organizationId: e.organizationId, requestId: e.requestId, actorId: e.userId, timeUs: now * 1000 });
        queue.push({ key: e.projectId, value });
        sender ??= drain();
      } catch (err) {
        lose(1, 'encode failed', err);
      }
    },
    async close() {
      closed = true;
      while (sender) await sender;
      if (logTimer) { clearTimeout(logTimer); logLosses(); }
    },
  };
}

/** The read events of the trace routes: recorded only when the read found something. */
export interface ReadEvents {
  /** Traces read by id (`trace_id` when one was asked for by path, `trace_ids` otherwise). */
  fetched(req: ScopedRequest, traceIds: string[], single?: boolean): void;
  /** Traces or spans found by a query: `count` results, spread over `traceIds`. */
  queried(req: ScopedRequest, count: number, traceIds: string[]): void;
  /** A part of an export (a `traces.queried` marked `export`): `count` records over at most
   * READ_EVENT_MAX_IDS `traceIds`; an export records one such event per that many traces. */
  exported(req: ScopedRequest, count: number, traceIds: string[], what: { format: string; focus: 'span' | 'trace' }): void;
}

/** What a read event needs of the request (an express Request after authentication). */
export interface ScopedRequest {
  id: string;
  scope: { projectId: string; organizationId: string; userId: string };
}

export function readEvents(recorder: EventRecorder | undefined): ReadEvents {
  const emit = (req: ScopedRequest, eventType: ReadEvent['eventType'], attributes: Record<string, unknown>): void => {
    recorder?.record({ projectId: req.scope.projectId, organizationId: req.scope.organizationId, userId: req.scope.userId, requestId: req.id, eventType, attributes });
  };
  const ids = (traceIds: string[]): string[] => [...new Set(traceIds)].slice(0, READ_EVENT_MAX_IDS);
  return {
    fetched(req, traceIds, single = false) {
      if (traceIds.length === 0) return;
      emit(req, 'traces.fetched', single && traceIds.length === 1 ? { count: 1, trace_id: traceIds[0] } : { count: traceIds.length, trace_ids: ids(traceIds) });
    },
    queried(req, count, traceIds) {
      if (count === 0) return;
      emit(req, 'traces.queried', { count, trace_ids: ids(traceIds) });
    },
    exported(req, count, traceIds, what) {
      if (count === 0) return;
      emit(req, 'traces.queried', { count, trace_ids: ids(traceIds), export: { format: what.format, focus: what.focus } });
    },
  };
}
