// A project's redaction policy (issue 30): which values ingest replaces with placeholders before
// spans are appended. Keyed `project:<id>:redaction`. The policy's content is validated by the
// command (it compiles the patterns); the rule here is that the project exists. Each accepted event
// is the next version of the project's policy, and ingest writes that version on the spans it redacts.
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, reject, type Decision } from '../../decision.ts';

export type RedactionPolicyEventType = 'accounts.redaction.policy_set';
export type RedactionPolicyEvent = AccountEvent<RedactionPolicyEventType>;

export interface RedactionPolicyState {
  /** Whether the project exists. */
  project: boolean;
  /** The number of policy changes accepted so far (0 = never set). */
  version: number;
}

export const REDACTION_POLICY_REJECTIONS = {
  redaction_project_not_found: 'not_found',
} as const;
export type RedactionPolicyRejection = keyof typeof REDACTION_POLICY_REJECTIONS;

export const redactionPolicyRules = rules({
  eventTypes: ['accounts.redaction.policy_set'],
  rejections: REDACTION_POLICY_REJECTIONS,

  decide(e: RedactionPolicyEvent, s: RedactionPolicyState): Decision<RedactionPolicyRejection> {
    return s.project ? accepted : reject('redaction_project_not_found', `Project not found: ${e.payload.project_id}.`, { ref: e.payload.project_id });
  },
});

// The stream key: every event of this aggregate goes to one partition of the accounts topic, in order.
/** A project's redaction policy. */
export const redactionKey = (projectId: string): string => `project:${projectId.toLowerCase()}:redaction`;
