// Appends accounts events (keyed by aggregate) and returns their event ids for read-your-writes.
import { randomUUID } from 'node:crypto';
import { encodeEvent, type EventPayloads, type Topics } from '@llm/events';
import type { Producer } from '@llm/kafka';
import { unavailable } from '@llm/errors';

export class AccountAppender {
  constructor(private readonly producer: Producer, private readonly topics: Topics) {}

  async append<T extends 'accounts.account.provisioned' | 'accounts.user.deleted'>(
    type: T, key: string, payload: EventPayloads[T], meta: { requestId: string; organizationId?: string; projectId?: string },
  ): Promise<string> {
    const eventId = randomUUID();
    const value = encodeEvent(type, payload, { ...meta, eventId, aggregateId: key, actorId: 'admin' });
    try {
      await this.producer.send(this.topics.accounts, [{ key, value }]);
    } catch (err) {
      throw unavailable('queue_unavailable', 'Failed to append the account event. Retry later.', err);
    }
    return eventId;
  }
}

/** Aggregate key of a user account: the lowercased email (uniqueness is decided on one partition). */
export const userKey = (email: string): string => `user:${email.toLowerCase()}`;
