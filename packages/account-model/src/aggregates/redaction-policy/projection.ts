// redaction_policies from the redaction-policy aggregate's facts (rules: rules.ts): each accepted change is the policy's next version.
import { eventTime } from '../../account-event.ts';
import type { RedactionPolicyEvent, RedactionPolicyState } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

export function projectRedactionPolicy(e: RedactionPolicyEvent, _s: RedactionPolicyState): SqlStatement[] {
  const p = e.payload;
  return [{
    text: `INSERT INTO redaction_policies (project_id, policy, version, updated_at, updated_by_id) VALUES ($1, $2::jsonb, 1, $3, $4)
           ON CONFLICT (project_id) DO UPDATE SET policy = EXCLUDED.policy, version = redaction_policies.version + 1, updated_at = EXCLUDED.updated_at,
             updated_by_id = EXCLUDED.updated_by_id`,
    values: [p.project_id, p.policy_json === '' ? null : p.policy_json, eventTime(e), e.actorId || null],
  }];
}
