// A typed client of this API: openapi-fetch calls typed by the types openapi-typescript generated
// from the OpenAPI document (src/schema.ts). Paths, bodies, parameters and answers are checked by
// the compiler against the document the services serve.
//
//   const api = createApiClient({ baseUrl: 'http://localhost:8000', apiKey: process.env.LLM_API_KEY });
//   const { data, error } = await api.GET('/traces/{trace_id}', { params: { path: { trace_id } } });
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.ts';

export type { components, operations, paths };
export type ApiClient = Client<paths>;

export interface ApiClientOptions extends Omit<ClientOptions, 'baseUrl' | 'headers'> {
  /** The deployment's base URL (any `/api` prefix included), e.g. `http://localhost:8000`. */
  baseUrl: string;
  /** A project API key: sent as `Authorization: ApiKey <key>`. */
  apiKey?: string | undefined;
  /** The operator token, for the `/admin/` routes: sent as `Authorization: Access <token>`. */
  adminToken?: string | undefined;
  /** Headers sent with every request, besides the credential. */
  headers?: Record<string, string> | undefined;
}

/** A client of one deployment, authenticated with an API key or the operator token (or neither, for the public routes). */
export function createApiClient(opts: ApiClientOptions): ApiClient {
  const { apiKey, adminToken, headers, ...rest } = opts;
  const authorization = apiKey !== undefined ? `ApiKey ${apiKey}` : adminToken !== undefined ? `Access ${adminToken}` : undefined;
  return createClient<paths>({
    ...rest,
    headers: { ...(authorization ? { Authorization: authorization } : {}), ...headers },
  });
}
