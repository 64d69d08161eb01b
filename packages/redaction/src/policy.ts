// A project's redaction policy: its HTTP shape is the contract's (@llm/contracts
// redaction-policy.ts), which the accounts event carries as JSON text.
import { redactionPolicyBody, type RedactionPolicyBody } from '@llm/contracts';

export { REDACTION_SCOPES, MAX_CUSTOM_PATTERNS } from '@llm/contracts';

export const redactionPolicySchema = redactionPolicyBody;
export type RedactionPolicy = RedactionPolicyBody;
export type RedactionScope = NonNullable<RedactionPolicy['apply_to']>;
export type CustomPattern = NonNullable<RedactionPolicy['custom']>[number];

/** A policy with its version (the count of changes of the project's policy): what ingest applies. */
export interface VersionedPolicy {
  version: number;
  policy: RedactionPolicy;
}
