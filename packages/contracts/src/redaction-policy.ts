// GET, PUT and DELETE /projects/{project_id}/redaction (issue 30): the project's redaction policy,
// applied by the command service to every span before it is appended. Which built-in detectors
// run, which custom patterns (run on a linear-time engine; one it cannot run is a 400), and which
// attributes they apply to.
import { z } from 'zod';
import { text } from './text.ts';

export const REDACTION_DETECTORS = ['email', 'phone', 'card', 'iban', 'api_key', 'token', 'ip'] as const;
export const REDACTION_SCOPES = ['inputs', 'outputs', 'all'] as const;
export const MAX_CUSTOM_PATTERNS = 10;
export const MAX_PATTERN_LENGTH = 256;

export const redactionCustomPattern = z.strictObject({
  /** Its count key on spans (`redaction.counts.<name>`); not a built-in detector's name. */
  name: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, 'lower-case letters, digits and _, starting with a letter, at most 32'),
  /** A JavaScript regular expression without backreferences, lookarounds or large counted repetitions. */
  pattern: text({ min: 1, max: MAX_PATTERN_LENGTH, label: 'pattern' }),
  /** Default: the name upper-cased in brackets, e.g. `[EMPLOYEE_ID]`. */
  placeholder: z.string().regex(/^\[[A-Z0-9_]{1,40}\]$/, 'an upper-case word in brackets, e.g. [EMPLOYEE_ID]').optional(),
});

/** The policy (PUT body). Every field is optional: `{}` runs every built-in detector on every attribute. */
export const redactionPolicyBody = z.strictObject({
  /** Built-in detectors to run; absent = all of them. */
  detectors: z.array(z.enum(REDACTION_DETECTORS)).max(REDACTION_DETECTORS.length).optional(),
  custom: z.array(redactionCustomPattern).max(MAX_CUSTOM_PATTERNS).optional(),
  /** inputs = `ag.data.inputs`; outputs = `ag.data.outputs`; all (default) = every attribute, event attribute and the status message. */
  apply_to: z.enum(REDACTION_SCOPES).optional(),
});
export type RedactionPolicyBody = z.infer<typeof redactionPolicyBody>;

/** The answer: the policy (null = none) and its version (the number of changes; 0 = never set). */
export const redactionPolicyResponse = z.object({
  project_id: z.uuid(),
  version: z.number().int(),
  policy: redactionPolicyBody.nullable(),
  updated_at: z.string().nullable(),
});
export type RedactionPolicyResponse = z.infer<typeof redactionPolicyResponse>;
