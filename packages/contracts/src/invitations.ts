// Bodies and queries of workspace invitations and member removal (compat §3.1): POST
// /organizations/{id}/workspaces/{ws}/invite (an array, of exactly one entry — the handler says so
// in the reference's words), …/invite/resend, …/invite/accept, DELETE /workspaces/{ws}/users.
import { z } from 'zod';
import { text, texts } from './text.ts';

export const invitationEntry = z.object({
  email: texts.email,
  /** The first role is the one granted; none (or an empty list) = viewer. */
  roles: z.array(text({ min: 1, max: 64 })).max(16).nullish(),
});
export const invitationCreate = z.array(invitationEntry).max(100);
export type InvitationCreate = z.infer<typeof invitationCreate>;

export const invitationResend = z.object({ email: texts.email });
export type InvitationResend = z.infer<typeof invitationResend>;

export const invitationAccept = z.object({
  token: text({ min: 1, max: 512 }),
  email: texts.email,
});
export type InvitationAccept = z.infer<typeof invitationAccept>;

export const workspaceUserRemove = z.object({
  email: texts.email,
  organization_id: texts.id.optional(),
  project_id: texts.id.optional(),
});
export type WorkspaceUserRemove = z.infer<typeof workspaceUserRemove>;
