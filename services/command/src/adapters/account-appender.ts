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

/** Aggregate key of a user account: the lowercased email (uniqueness is decided on one partition). */
export const userKey = (email: string): string => `user:${email.toLowerCase()}`;
/** Aggregate key of an organization's own events (its life, settings, roles and projects). */
export const organizationKey = (organizationId: string): string => `organization:${organizationId}`;
/** Aggregate key of a project's API keys. */
export const apiKeysKey = (projectId: string): string => `project:${projectId}:keys`;
/** Aggregate key of a domain claim: the name as the organization wrote it. */
export const domainKey = (domain: string): string => `domain:${domain}`;

/**
 * Partition key of every saved-query event of a project: slugs are unique per project, so their
 * uniqueness (and each variant's version order) is decided on one partition.
 */
export const savedQueriesKey = (projectId: string): string => `project:${projectId}:queries`;
