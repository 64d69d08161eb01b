// The command side: validates, authorizes and appends events. It never writes a read model.
import type { Topics } from '@llm/events';
import type { Producer } from '@llm/kafka';
import type { Pool } from '@llm/postgres';
import { adminAuthenticator, apiKeyAuthenticator, postgresApiKeyLookup } from '@llm/auth';
import type { Handlers } from '@llm/http';
import { SpanAppender } from './adapters/span-appender.ts';
import { AccountAppender } from './adapters/account-appender.ts';
import { tracingRoutes } from './http/tracing-routes.ts';
import { otlpRoutes } from './http/otlp-routes.ts';
import { adminRoutes } from './http/admin-routes.ts';

export interface CommandDeps {
  producer: Producer;
  topics: Topics;
  pool: Pool;
  adminToken: string;
  otlpMaxBatchBytes: number;
}

export function commandHandlers(deps: CommandDeps): Handlers {
  const auth = apiKeyAuthenticator({ lookup: postgresApiKeyLookup(deps.pool) });
  const spans = new SpanAppender(deps.producer, deps.topics);
  return {
    ...tracingRoutes(spans, auth),
    ...otlpRoutes(spans, auth, deps.otlpMaxBatchBytes),
    ...adminRoutes(new AccountAppender(deps.producer, deps.topics), deps.pool, adminAuthenticator(deps.adminToken)),
  };
}
