// A project's redaction policy as clients write it (PUT /projects/current/redaction) and as the
// accounts event carries it (JSON text): which built-in detectors run, which custom patterns, and
// which attributes they apply to.
import { z } from 'zod';
import { DETECTOR_NAMES } from './detectors.ts';

export const REDACTION_SCOPES = ['inputs', 'outputs', 'all'] as const;
export type RedactionScope = (typeof REDACTION_SCOPES)[number];

export const MAX_CUSTOM_PATTERNS = 10;

export const customPattern = z.object({
  name: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, 'lower-case letters, digits and _, starting with a letter, at most 32'),
  pattern: z.string().min(1).max(256),
  /** Default: the name upper-cased in brackets, e.g. `[EMPLOYEE_ID]`. */
  placeholder: z.string().regex(/^\[[A-Z0-9_]{1,40}\]$/, 'an upper-case word in brackets, e.g. [EMPLOYEE_ID]').optional(),
}).strict();
export type CustomPattern = z.infer<typeof customPattern>;

export const redactionPolicySchema = z.object({
  /** Built-in detectors to run; absent = all of them. */
  detectors: z.array(z.enum(DETECTOR_NAMES)).max(DETECTOR_NAMES.length).optional(),
  custom: z.array(customPattern).max(MAX_CUSTOM_PATTERNS).optional(),
  /** inputs = `ag.data.inputs`; outputs = `ag.data.outputs`; all = every attribute, event attribute and the status message. */
  apply_to: z.enum(REDACTION_SCOPES).optional(),
}).strict();
export type RedactionPolicy = z.infer<typeof redactionPolicySchema>;

/** A policy with its version (the count of changes of the project's policy): what ingest applies. */
export interface VersionedPolicy {
  version: number;
  policy: RedactionPolicy;
}
