// The query side: answers every read from the read models only.
import type { Clickhouse } from '@llm/clickhouse';
import type { Pool } from '@llm/postgres';
import { apiKeyAuthenticator, postgresApiKeyLookup } from '@llm/auth';
import type { Handlers } from '@llm/http';
import { SpanReader } from './adapters/span-reader.ts';
import { readRoutes } from './http/read-routes.ts';
import { queryRoutes } from './http/query-routes.ts';
import { activityRoutes } from './http/activity-routes.ts';

export interface QueryDeps {
  ch: Clickhouse;
  pool: Pool;
}

export function queryHandlers(deps: QueryDeps): Handlers {
  const auth = apiKeyAuthenticator({ lookup: postgresApiKeyLookup(deps.pool) });
  const reader = new SpanReader(deps.ch);
  return { ...readRoutes(reader, auth), ...queryRoutes(reader, auth), ...activityRoutes(reader, auth) };
}
