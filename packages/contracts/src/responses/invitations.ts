// zod schemas of the invitation and workspace-member answers (services/command invitation-routes).
import { z } from 'zod';

/** POST …/invite and …/invite/resend: the link the invitee follows (also mailed when mail is set up). */
export const invitationLinkResponse = z.object({ url: z.string() });
/** POST …/invite/accept. */
export const invitationAcceptedResponse = z.object({ message: z.string() });
/** DELETE /workspaces/{id}/users: the reference answers a bare `true`. */
export const workspaceUserRemovedResponse = z.literal(true);
