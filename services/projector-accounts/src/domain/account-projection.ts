// Pure projection of accounts events into SQL statements. Rejections (rules that depend on the read
// model, like email uniqueness) are decided by `decide` against facts the adapter reads first, so
// the same ordered partition always yields the same facts on every replay.
import type { DecodedEvent } from '@llm/events';
import type { Projection, SqlStatement } from './projection.ts';
import {
  projectSavedQueryEvent, savedQueryFactsNeeded, type SavedQueryEvent, type SavedQueryFacts, type SavedQueryFactsNeeded,
} from './saved-query-projection.ts';
import { apiKeyFactsNeeded, projectApiKeyEvent, type ApiKeyEvent, type ApiKeyFacts, type ApiKeyFactsNeeded } from './api-key-projection.ts';
import { membershipFactsNeeded, projectMembershipEvent, type MembershipEvent, type MembershipFacts, type MembershipFactsNeeded } from './membership-projection.ts';
import { identityFactsNeeded, projectIdentityEvent, type IdentityEvent, type IdentityFacts, type IdentityFactsNeeded } from './identity-projection.ts';

export type { Projection, SqlStatement };

/** What the projector needs to know about the current read model to apply an event. */
export interface AccountFacts {
  emailTaken: boolean;
  userExists: boolean;
  /** An organization already has the slug a provisioned account asks for. */
  orgSlugTaken?: boolean;
  /** Read only for saved-query events. */
  savedQuery?: SavedQueryFacts;
  /** Read only for sign-in and session events. */
  identity?: IdentityFacts;
  /** Read only for API key events. */
  apiKey?: ApiKeyFacts;
  /** Read only for membership events. */
  membership?: MembershipFacts;
}

export interface FactsNeeded {
  email?: string;
  userId?: string;
  orgSlug?: string;
  savedQuery?: SavedQueryFactsNeeded;
  identity?: IdentityFactsNeeded;
  apiKey?: ApiKeyFactsNeeded;
  membership?: MembershipFactsNeeded;
}

export function factsNeeded(e: DecodedEvent): FactsNeeded {
  switch (e.type) {
    case 'accounts.account.provisioned': {
      const p = (e as DecodedEvent<'accounts.account.provisioned'>).payload;
      return { email: p.user.email, userId: p.user.id, orgSlug: p.organization.slug };
    }
    case 'accounts.user.deleted':
      return { userId: (e as DecodedEvent<'accounts.user.deleted'>).payload.user_id };
    case 'accounts.query.created':
    case 'accounts.query.revision.committed':
      return { savedQuery: savedQueryFactsNeeded(e as SavedQueryEvent) };
    case 'accounts.domain.token_issued':
    case 'accounts.domain.verified':
    case 'accounts.domain.deleted':
      return {};
    case 'accounts.identity.signed_in':
    case 'accounts.session.revoked':
      return { identity: identityFactsNeeded(e as IdentityEvent) };
    case 'accounts.organization.updated':
    case 'accounts.provider.created':
    case 'accounts.provider.updated':
    case 'accounts.provider.tested':
    case 'accounts.provider.deleted':
      return {};
    case 'accounts.api_key.created':
    case 'accounts.api_key.revoked':
      return { apiKey: apiKeyFactsNeeded(e as ApiKeyEvent) };
    case 'accounts.membership.set':
    case 'accounts.membership.removed':
      return { membership: membershipFactsNeeded(e as MembershipEvent) };
    default:
      return {};
  }
}

export function projectAccountEvent(e: DecodedEvent, facts: AccountFacts): Projection {
  const at = new Date(e.timeUs / 1000).toISOString();
  switch (e.type) {
    case 'accounts.account.provisioned': {
      const p = (e as DecodedEvent<'accounts.account.provisioned'>).payload;
      if (facts.emailTaken || facts.userExists) return { status: 'rejected', reason: `User with email '${p.user.email}' already exists.` };
      if (facts.orgSlugTaken) return { status: 'rejected', reason: `Organization slug '${p.organization.slug}' already exists.` };
      const s: SqlStatement[] = [
        { text: 'INSERT INTO users (id, email, name, username, created_at) VALUES ($1,$2,$3,$4,$5)', values: [p.user.id, p.user.email, p.user.name, p.user.username, at] },
        { text: 'INSERT INTO organizations (id, name, slug, owner_id, created_at) VALUES ($1,$2,$3,$4,$5)', values: [p.organization.id, p.organization.name, p.organization.slug, p.user.id, at] },
        { text: 'INSERT INTO workspaces (id, organization_id, name, slug, created_at) VALUES ($1,$2,$3,$4,$5)', values: [p.workspace.id, p.organization.id, p.workspace.name, p.workspace.slug, at] },
        { text: 'INSERT INTO projects (id, workspace_id, organization_id, name, slug, is_default, created_at) VALUES ($1,$2,$3,$4,$5,true,$6)', values: [p.project.id, p.workspace.id, p.organization.id, p.project.name, p.project.slug, at] },
      ];
      for (const [scope, id] of [['organization', p.organization.id], ['workspace', p.workspace.id], ['project', p.project.id]] as const) {
        s.push({ text: 'INSERT INTO memberships (scope, scope_id, user_id, role, created_at) VALUES ($1,$2,$3,$4,$5)', values: [scope, id, p.user.id, 'owner', at] });
      }
      if (p.api_key && p.api_key.id) {
        const exp = p.api_key.expires_at_us ? new Date(p.api_key.expires_at_us / 1000).toISOString() : null;
        s.push({
          text: 'INSERT INTO api_keys (id, project_id, user_id, prefix, secret_hash, expires_at, created_at) VALUES ($1,$2,$3,$4,$5,$6,$7)',
          values: [p.api_key.id, p.project.id, p.user.id, p.api_key.prefix, p.api_key.secret_hash, exp, at],
        });
      }
      return { status: 'applied', statements: s };
    }
    case 'accounts.user.deleted': {
      const p = (e as DecodedEvent<'accounts.user.deleted'>).payload;
      if (!facts.userExists) return { status: 'applied', statements: [] };
      return {
        status: 'applied',
        statements: [
          // Owned organizations go first (their workspaces, projects and keys cascade), then the user.
          { text: 'DELETE FROM organizations WHERE owner_id = $1', values: [p.user_id] },
          { text: 'DELETE FROM users WHERE id = $1', values: [p.user_id] },
        ],
      };
    }
    case 'accounts.query.created':
    case 'accounts.query.revision.committed':
      if (!facts.savedQuery) return { status: 'rejected', reason: `the saved-query facts of ${e.type} were not read` };
      return projectSavedQueryEvent(e as SavedQueryEvent, facts.savedQuery);
    case 'accounts.domain.token_issued':
    case 'accounts.domain.verified':
    case 'accounts.domain.deleted':
      return { status: 'rejected', reason: 'ported' };
    case 'accounts.identity.signed_in':
    case 'accounts.session.revoked':
      if (!facts.identity) return { status: 'rejected', reason: `the identity facts of ${e.type} were not read` };
      return projectIdentityEvent(e as IdentityEvent, facts.identity);
    case 'accounts.organization.updated':
    case 'accounts.provider.created':
    case 'accounts.provider.updated':
    case 'accounts.provider.tested':
    case 'accounts.provider.deleted':
      return { status: 'rejected', reason: 'ported' };
    case 'accounts.api_key.created':
    case 'accounts.api_key.revoked':
      if (!facts.apiKey) return { status: 'rejected', reason: `the API key facts of ${e.type} were not read` };
      return projectApiKeyEvent(e as ApiKeyEvent, facts.apiKey);
    case 'accounts.membership.set':
    case 'accounts.membership.removed':
      if (!facts.membership) return { status: 'rejected', reason: `the membership facts of ${e.type} were not read` };
      return projectMembershipEvent(e as MembershipEvent, facts.membership);
    case 'tracing.spans.upserted':
    case 'tracing.trace.replaced':
    case 'tracing.trace.deleted':
      return { status: 'rejected', reason: `event type '${e.type}' does not belong on the accounts topic` };
    default: {
      const never: never = e.type;
      return { status: 'rejected', reason: `unhandled event type ${String(never)}` };
    }
  }
}
