// TypeScript shapes of the payload messages (mirror the .proto files; int64 fields as numbers).

export interface SpanRecord {
  trace_id: string;
  span_id: string;
  parent_id: string;
  span_name: string;
  span_kind: string;
  span_type: string;
  trace_type: string;
  status_code: string;
  status_message: string;
  start_time_us: number;
  end_time_us: number;
  attributes_json: string;
  events_json: string;
  links_json: string;
  references_json: string;
  hashes_json: string;
  session_id: string;
  user_id: string;
  tokens_incremental: Record<string, number>;
  costs_incremental: Record<string, number>;
  errors_incremental: number;
  duration_ms: number;
}

export interface SpansUpserted { trace_id: string; spans: SpanRecord[] }
export interface TraceReplaced { trace_id: string; spans: SpanRecord[] }
export interface TraceDeleted { trace_id: string }

export interface UserCreated { user_id: string; email: string; name: string; username: string }
export interface UserDeleted { user_id: string }
export interface OrganizationCreated { organization_id: string; name: string; slug: string; owner_id: string }
export interface WorkspaceCreated { workspace_id: string; organization_id: string; name: string; slug: string }
export interface ProjectCreated { project_id: string; workspace_id: string; organization_id: string; name: string; slug: string; is_default: boolean }
export interface MembershipGranted { scope: 'organization' | 'workspace' | 'project'; scope_id: string; user_id: string; role: string }
export interface ApiKeyCreated { api_key_id: string; project_id: string; user_id: string; prefix: string; secret_hash: string; expires_at_us: number }
export interface ApiKeyRevoked { api_key_id: string; project_id: string }
