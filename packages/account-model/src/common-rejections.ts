// Codes any accounts event may get, whatever its aggregate.
import type { ErrorKind } from '@llm/errors';

export const COMMON_REJECTIONS = {
  /** The store could not hold the event's data (e.g. text Postgres refuses); recorded by the projector. */
  unstorable: 'unprocessable',
  /** The event cannot be a fact as written (an id that is not a UUID, an out-of-order version). */
  malformed_event: 'unprocessable',
  /** A tracing event on the accounts topic. */
  wrong_topic: 'unprocessable',
} as const satisfies Record<string, ErrorKind>;

export type CommonRejection = keyof typeof COMMON_REJECTIONS;
