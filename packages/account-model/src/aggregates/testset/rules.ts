// Testsets of a project (reference compat §4.2): named, ordered rows a human evaluation turns into
// scenarios. Keyed `project:<id>:testsets` (slug uniqueness decided in one partition's order).
// A testset is created whole and never changed here, so its rows need no version.
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, reject, type Decision } from '../../decision.ts';
import { sameId } from '../ids.ts';

export type TestsetEventType = 'accounts.testset.created';
export type TestsetEvent = AccountEvent<TestsetEventType>;

export interface TestsetState {
  projects: Array<{ id: string }>;
  /** The testsets with the event's id or its slug in its project. */
  testsets: Array<{ id: string; projectId: string; slug: string }>;
}

export const TESTSET_REJECTIONS = {
  testset_project_not_found: 'not_found',
  testset_exists: 'conflict',
  testset_slug_taken: 'conflict',
} as const;
export type TestsetRejection = keyof typeof TESTSET_REJECTIONS;

export const testsetRules = rules({
  eventTypes: ['accounts.testset.created'],
  rejections: TESTSET_REJECTIONS,

  decide(e: TestsetEvent, s: TestsetState): Decision<TestsetRejection> {
    const p = e.payload;
    if (!s.projects.some((x) => sameId(x.id, p.project_id))) return reject('testset_project_not_found', 'Project not found');
    if (s.testsets.some((x) => sameId(x.id, p.testset_id))) return reject('testset_exists', 'Testset already exists');
    if (s.testsets.some((x) => sameId(x.projectId, p.project_id) && x.slug === p.slug)) {
      return reject('testset_slug_taken', 'A testset with this slug already exists in the project.');
    }
    return accepted;
  },
});

// The stream key: every event of this aggregate goes to one partition of the accounts topic, in order.
/** A project's testsets. */
export const testsetsKey = (projectId: string): string => `project:${projectId}:testsets`;
