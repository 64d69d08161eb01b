// Optimistic concurrency on accounts aggregates (DESIGN "Consistency"). A command reads an aggregate
// at version v and appends its event with expected_version = v; the event is a fact only when the
// aggregate is still at v when the event's turn comes on its (ordered) partition. Every consumer of
// the accounts topic decides with this one function, so projectors, the webhook dispatcher and the
// event query agree on which events are facts, on every replay.

export type VersionCheck = { ok: true } | { ok: false; reason: string };

const PREFIX = 'Version conflict:';

/**
 * `expected` 0 means "no expectation" (the envelope default). `current` is the aggregate's version
 * before the event (0 when it does not exist yet).
 */
export function checkExpectedVersion(expected: number, current: number): VersionCheck {
  if (expected === 0 || expected === current) return { ok: true };
  return { ok: false, reason: `${PREFIX} expected version ${expected}, but the current version is ${current}.` };
}

/** Recognises a rejection produced by checkExpectedVersion (a waiting command answers 409 or retries). */
export const isVersionConflict = (rejection: string): boolean => rejection.startsWith(PREFIX);
