// PATCH /projects/{project_id} (issue 30): a project keeps its spans, events and webhook deliveries
// for less than its plan's retention, never longer. Minutes, like the plan catalog's `retention`.
import { z } from 'zod';
import { int } from './numbers.ts';

/** The request: `retention_minutes` at least 1, or null for the plan's own. */
export const projectUpdate = z.strictObject({
  retention_minutes: int({ min: 1, label: 'retention_minutes' }).nullable(),
});
export type ProjectUpdate = z.infer<typeof projectUpdate>;

/** Minutes per kind of data; null = kept for ever. */
const retentionByData = z.object({ spans: z.number().int().nullable(), events: z.number().int().nullable() });

/** The answer: the project's own setting, its plan's, and what applies (the shorter of the two). */
export const projectRetentionResponse = z.object({
  project_id: z.uuid(),
  retention_minutes: z.number().int().nullable(),
  plan: z.string(),
  plan_retention_minutes: retentionByData,
  effective_retention_minutes: retentionByData,
});
export type ProjectRetentionResponse = z.infer<typeof projectRetentionResponse>;
