// The registry of event types: wire name → payload message and schema version.
// Never reuse or rename a type; a breaking change is a new version with an upcaster.
import type {
  ApiKeyCreated, ApiKeyRevoked, MembershipGranted, OrganizationCreated, ProjectCreated, SpansUpserted,
  TraceDeleted, TraceReplaced, UserCreated, UserDeleted, WorkspaceCreated,
} from './payloads.ts';

export interface EventPayloads {
  'tracing.spans.upserted': SpansUpserted;
  'tracing.trace.replaced': TraceReplaced;
  'tracing.trace.deleted': TraceDeleted;
  'accounts.user.created': UserCreated;
  'accounts.user.deleted': UserDeleted;
  'accounts.organization.created': OrganizationCreated;
  'accounts.workspace.created': WorkspaceCreated;
  'accounts.project.created': ProjectCreated;
  'accounts.membership.granted': MembershipGranted;
  'accounts.api_key.created': ApiKeyCreated;
  'accounts.api_key.revoked': ApiKeyRevoked;
}

export type EventType = keyof EventPayloads;

export const EVENT_TYPES: Record<EventType, { message: string; version: number }> = {
  'tracing.spans.upserted': { message: 'SpansUpserted', version: 1 },
  'tracing.trace.replaced': { message: 'TraceReplaced', version: 1 },
  'tracing.trace.deleted': { message: 'TraceDeleted', version: 1 },
  'accounts.user.created': { message: 'UserCreated', version: 1 },
  'accounts.user.deleted': { message: 'UserDeleted', version: 1 },
  'accounts.organization.created': { message: 'OrganizationCreated', version: 1 },
  'accounts.workspace.created': { message: 'WorkspaceCreated', version: 1 },
  'accounts.project.created': { message: 'ProjectCreated', version: 1 },
  'accounts.membership.granted': { message: 'MembershipGranted', version: 1 },
  'accounts.api_key.created': { message: 'ApiKeyCreated', version: 1 },
  'accounts.api_key.revoked': { message: 'ApiKeyRevoked', version: 1 },
};

export const isEventType = (t: string): t is EventType => Object.hasOwn(EVENT_TYPES, t);
