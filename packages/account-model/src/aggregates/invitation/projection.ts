// invitations from the invitation aggregate's facts (rules: rules.ts). An
// acceptance also writes the organization membership it grants, with the invitation's role, in the
// same transaction: the two are one fact, so no replay can hold one without the other. A member who
// already holds a role keeps it (an acceptance never lowers nor raises an existing role).
import { eventTime } from '../../account-event.ts';
import { normalEmail, type InvitationEvent, type InvitationState } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

const usTime = (us: number): string => new Date(Math.floor(us / 1000)).toISOString();

export function projectInvitation(e: InvitationEvent, _s: InvitationState): SqlStatement[] {
  const at = eventTime(e);
  switch (e.type) {
    case 'accounts.invitation.created': {
      const p = e.payload;
      return [{
        text: `INSERT INTO invitations (id, organization_id, workspace_id, project_id, email, role, token_hash, expires_at, inviter_id, created_at)
               VALUES ($1, $2, $3, NULLIF($4, '')::uuid, $5, $6, $7, $8, NULLIF($9, '')::uuid, $10)`,
        values: [p.invitation_id, p.organization_id, p.workspace_id, p.project_id, normalEmail(p.email), p.role, p.token_hash, usTime(p.expires_at_us), p.inviter_id, at],
      }];
    }
    case 'accounts.invitation.resent': {
      const p = e.payload;
      return [{
        text: 'UPDATE invitations SET token_hash = $3, expires_at = $4, updated_at = $5 WHERE id = $1 AND organization_id = $2',
        values: [p.invitation_id, p.organization_id, p.token_hash, usTime(p.expires_at_us), at],
      }];
    }
    case 'accounts.invitation.accepted': {
      const p = e.payload;
      return [
        {
          text: 'UPDATE invitations SET accepted_at = $3, accepted_by = $4, updated_at = $3 WHERE id = $1 AND organization_id = $2',
          values: [p.invitation_id, p.organization_id, at, p.user_id],
        },
        {
          text: `INSERT INTO memberships (scope, scope_id, user_id, role, created_at)
                 SELECT 'organization', organization_id, $2, role, $3 FROM invitations WHERE id = $1
                 ON CONFLICT (scope, scope_id, user_id) DO NOTHING`,
          values: [p.invitation_id, p.user_id, at],
        },
      ];
    }
    case 'accounts.invitation.revoked':
      return [{
        text: 'DELETE FROM invitations WHERE organization_id = $1 AND email = $2 AND accepted_at IS NULL',
        values: [e.payload.organization_id, normalEmail(e.payload.email)],
      }];
  }
}
