// Appends accounts events (keyed by aggregate) and returns their event ids for read-your-writes.
import { randomUUID } from 'node:crypto';
import { encodeEvent, type EventPayloads, type EventType, type Topics } from '@llm/events';
import { RecordTooLargeError, type Producer } from '@llm/kafka';
import { AppError, unavailable } from '@llm/errors';

export type AccountsEventType = Extract<EventType, `accounts.${string}`>;

export interface AccountEventMeta {
  requestId: string;
  organizationId?: string;
  projectId?: string;
  /** The aggregate inside the partition key (default: the key itself). */
  aggregateId?: string;
  /** The user or API key that caused the event (default: the operator). */
  actorId?: string;
  /** Optimistic concurrency: the aggregate version the command read (0 = none). */
  expectedVersion?: number;
}

export class AccountAppender {
  constructor(private readonly producer: Producer, private readonly topics: Topics) {}

  async append<T extends AccountsEventType>(type: T, key: string, payload: EventPayloads[T], meta: AccountEventMeta): Promise<string> {
    const eventId = randomUUID();
    const value = encodeEvent(type, payload, { aggregateId: key, actorId: 'admin', ...meta, eventId });
    try {
      await this.producer.send(this.topics.accounts, [{ key, value }]);
    } catch (err) {
      if (err instanceof RecordTooLargeError) {
        throw new AppError({ code: 'change_too_large', kind: 'too_large', message: `The change is too large to record: ${err.bytes} bytes, above the ${err.limit} byte limit.`, cause: err });
      }
      throw unavailable('queue_unavailable', 'Failed to append the account event. Retry later.', err);
    }
    return eventId;
  }
}
