// Bodies of the organization lifecycle (compat §3.1): POST /organizations/.
import { z } from 'zod';
import { text, texts, TEXT_LIMITS } from './text.ts';

export const organizationCreate = z.object({
  name: text({ min: 1, max: TEXT_LIMITS.name }).optional(),
  description: texts.description.nullish(),
});
export type OrganizationCreate = z.infer<typeof organizationCreate>;
