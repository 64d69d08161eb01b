// An accounts event as the rules see it: the same shape whether the command is about to append it
// (its early answer) or the projector has decoded it from the log (the authority).
import type { DecodedEvent, EventType } from '@llm/events';

export type AccountEventType = Extract<EventType, `accounts.${string}`>;

type Fields = 'type' | 'payload' | 'projectId' | 'organizationId' | 'actorId' | 'expectedVersion' | 'timeUs';

/** One event of type T (a union of types gives a discriminated union of events). */
export type AccountEvent<T extends AccountEventType = AccountEventType> = { [K in T]: Pick<DecodedEvent<K>, Fields> }[T];

/** An event's envelope for another event it is translated into (`projectId`: when its payload names the project). */
export const envelopeOf = (e: AccountEvent, projectId: string = e.projectId): Omit<AccountEvent, 'type' | 'payload'> =>
  ({ projectId, organizationId: e.organizationId, actorId: e.actorId, expectedVersion: e.expectedVersion, timeUs: e.timeUs });

/** The event's time as an ISO timestamp (the time the command recorded it). */
export const eventTime = (e: Pick<AccountEvent, 'timeUs'>): string => {
  const d = new Date(e.timeUs / 1000);
  return Number.isNaN(d.getTime()) ? new Date(0).toISOString() : d.toISOString();
};
