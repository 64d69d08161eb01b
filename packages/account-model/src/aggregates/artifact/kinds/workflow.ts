// The workflow kind of the versioned-artifact model (workflows, applications and evaluators share
// it), pure parts (E§1.2, E§2.7, design §2.7): the handler URI, the revision flags inferred on every
// commit, the enrichment of stored data, and the schema of a revision's `data`.
//
// The handler table lists the keys the reference's catalog names (E§2.5: the `agenta:builtin:`
// template keys, archived ones included, and the `agenta:custom:` keys `code, hook, feedback,
// mock`) plus the builtins E§2.7 names elsewhere (`completion`, `chat`, `agent`, `skill`). An
// `agenta` URI naming anything else fails the commit (E§2.7); other providers are not ours to know.
import { z } from 'zod';

// --- URI -----------------------------------------------------------------------------------------

export interface WorkflowUri { provider: string; kind: string; key: string; version: string }

export const DEFAULT_PROVIDER = 'agenta';
export const DEFAULT_KIND = 'builtin';
export const DEFAULT_VERSION = 'latest';

/**
 * `provider:kind:key:version` (E§2.7). Shorter forms drop parts from the left, keeping the key:
 * `kind:key:version`, `key:version`, `key`; missing or empty parts take the defaults (provider
 * `agenta`, kind `builtin`, version `latest`). Undefined for an empty key or more than four parts.
 */
export function parseWorkflowUri(uri: string): WorkflowUri | undefined {
  const parts = uri.trim().split(':');
  if (parts.length > 4) return undefined;
  // Right-align the parts on provider:kind:key:version, except that one part is the key.
  const [provider, kind, key, version] = parts.length === 1 ? ['', '', parts[0], ''] : [...Array<string>(4 - parts.length).fill(''), ...parts];
  if (!key) return undefined;
  return { provider: provider || DEFAULT_PROVIDER, kind: kind || DEFAULT_KIND, key, version: version || DEFAULT_VERSION };
}

// --- Handler table -------------------------------------------------------------------------------

export interface RoleFlags { is_application: boolean; is_evaluator: boolean; is_snippet: boolean }

/** The by-key flags of E§2.7. */
type KeyFlag = 'is_llm' | 'is_hook' | 'is_code' | 'is_match' | 'is_feedback' | 'is_agent' | 'is_skill';

export interface Handler {
  kind: 'builtin' | 'custom';
  /** The roles a revision takes when its request sends none (E§2.7 "the handler role table"). */
  roles: RoleFlags;
  flags: readonly KeyFlag[];
}

const APP: RoleFlags = { is_application: true, is_evaluator: false, is_snippet: false };
const EVAL: RoleFlags = { is_application: false, is_evaluator: true, is_snippet: false };
const BOTH: RoleFlags = { is_application: true, is_evaluator: true, is_snippet: false };
const SNIPPET: RoleFlags = { is_application: false, is_evaluator: false, is_snippet: true };

const builtin = (roles: RoleFlags, ...flags: KeyFlag[]): Handler => ({ kind: 'builtin', roles, flags });
const custom = (roles: RoleFlags, ...flags: KeyFlag[]): Handler => ({ kind: 'custom', roles, flags });

/**
 * Known `agenta` handlers by key. Our reading where the reference gives no table: `is_match` for
 * every comparison of an output with a reference or pattern; `is_llm` for handlers that call a
 * model, embeddings included (`auto_semantic_similarity` needs a provider key like the others);
 * `prompt`, `llm`, `echo`, `code`, `hook` and `mock` are evaluator-capable (the evaluator catalog
 * lists them) and usable as applications; `skill` is a snippet (its data is cut to parameters).
 */
export const WORKFLOW_HANDLERS: Readonly<Record<string, Handler>> = {
  auto_exact_match: builtin(EVAL, 'is_match'),
  auto_regex_test: builtin(EVAL, 'is_match'),
  json_multi_field_match: builtin(EVAL, 'is_match'),
  auto_webhook_test: builtin(EVAL, 'is_hook'),
  auto_custom_code_run: builtin(EVAL, 'is_code'),
  auto_ai_critique: builtin(EVAL, 'is_llm'),
  auto_contains_json: builtin(EVAL, 'is_match'),
  auto_json_diff: builtin(EVAL, 'is_match'),
  auto_levenshtein_distance: builtin(EVAL, 'is_match'),
  auto_similarity_match: builtin(EVAL, 'is_match'),
  auto_semantic_similarity: builtin(EVAL, 'is_match', 'is_llm'),
  match: builtin(EVAL, 'is_match'),
  prompt: builtin(BOTH, 'is_llm'),
  echo: builtin(BOTH),
  llm: builtin(BOTH, 'is_llm'),
  // Archived templates: hidden from the catalog, still valid in stored revisions.
  field_match_test: builtin(EVAL, 'is_match'),
  auto_starts_with: builtin(EVAL, 'is_match'),
  auto_ends_with: builtin(EVAL, 'is_match'),
  auto_contains: builtin(EVAL, 'is_match'),
  auto_contains_any: builtin(EVAL, 'is_match'),
  auto_contains_all: builtin(EVAL, 'is_match'),
  // Builtins named by E§2.7 outside the catalog.
  completion: builtin(APP, 'is_llm'),
  chat: builtin(APP, 'is_llm'),
  agent: builtin(APP, 'is_llm', 'is_agent'),
  skill: builtin(SNIPPET, 'is_skill'),
  // `agenta:custom:` handlers.
  code: custom(BOTH, 'is_code'),
  hook: custom(BOTH, 'is_hook'),
  feedback: custom(EVAL, 'is_feedback'),
  mock: custom(BOTH),
};

/** The handler an `agenta` URI names (kind and key both match), else undefined. */
export function workflowHandler(uri: WorkflowUri): Handler | undefined {
  if (uri.provider !== DEFAULT_PROVIDER || !Object.hasOwn(WORKFLOW_HANDLERS, uri.key)) return undefined;
  const handler = WORKFLOW_HANDLERS[uri.key];
  return handler?.kind === uri.kind ? handler : undefined;
}

// --- Revision flags ------------------------------------------------------------------------------

export interface WorkflowRevisionFlags extends RoleFlags {
  is_managed: boolean; is_custom: boolean; is_llm: boolean; is_hook: boolean; is_code: boolean;
  is_match: boolean; is_feedback: boolean; is_agent: boolean; is_skill: boolean; is_chat: boolean;
  has_url: boolean; has_script: boolean; has_handler: boolean; is_static: boolean;
}

export interface FlagInput {
  uri?: string | null;
  url?: string | null;
  script?: unknown;
  slug?: string | null;
  schemas?: { inputs?: unknown } | null;
  /** Role flags as the request sent them; any one sent makes the request decide all three. */
  requested?: { is_application?: boolean | null; is_evaluator?: boolean | null; is_snippet?: boolean | null } | null;
}

export type FlagInference =
  | { ok: true; flags: WorkflowRevisionFlags }
  | { ok: false; code: 'workflow_uri_invalid' | 'workflow_handler_unknown'; message: string };

/** Static workflows are the reserved `__ag__` slugs (E§2.7). */
export const STATIC_SLUG_PREFIX = '__ag__';

/**
 * The flags of a revision (E§1.2, E§2.7), re-inferred on every commit from its data and slug:
 * `is_managed` = provider agenta, `is_custom` = kind custom, by-key flags from the handler table,
 * `is_chat` = key chat or a `messages` property among the input schema's properties, `has_url` /
 * `has_script` = a non-empty value, `has_handler` = the URI names a handler of the table (one the
 * services can run), `is_static` = an `__ag__` slug. Roles: the request's, else the handler's,
 * else evaluator-only when there is no URI (a URI of another provider gets no role).
 */
export function inferRevisionFlags(input: FlagInput): FlagInference {
  const rawUri = input.uri?.trim() ? input.uri : undefined;
  const uri = rawUri === undefined ? undefined : parseWorkflowUri(rawUri);
  if (rawUri !== undefined && uri === undefined) {
    return { ok: false, code: 'workflow_uri_invalid', message: `Invalid workflow URI '${rawUri}': expected provider:kind:key:version.` };
  }
  const handler = uri && workflowHandler(uri);
  if (uri && uri.provider === DEFAULT_PROVIDER && !handler) {
    return { ok: false, code: 'workflow_handler_unknown', message: `Unknown agenta handler '${uri.kind}:${uri.key}' in workflow URI '${rawUri ?? ''}'.` };
  }
  const byKey = new Set<KeyFlag>(handler?.flags ?? []);
  const requested = input.requested;
  const sent = requested != null && [requested.is_application, requested.is_evaluator, requested.is_snippet].some((f) => f != null);
  const roles: RoleFlags = sent
    ? { is_application: requested.is_application === true, is_evaluator: requested.is_evaluator === true, is_snippet: requested.is_snippet === true }
    : handler?.roles ?? (uri === undefined ? EVAL : { is_application: false, is_evaluator: false, is_snippet: false });
  return {
    ok: true,
    flags: {
      ...roles,
      is_managed: uri?.provider === DEFAULT_PROVIDER,
      is_custom: uri?.kind === 'custom',
      is_llm: byKey.has('is_llm'),
      is_hook: byKey.has('is_hook'),
      is_code: byKey.has('is_code'),
      is_match: byKey.has('is_match'),
      is_feedback: byKey.has('is_feedback'),
      is_agent: byKey.has('is_agent'),
      is_skill: byKey.has('is_skill'),
      is_chat: uri?.key === 'chat' || hasMessagesInput(input.schemas?.inputs),
      has_url: typeof input.url === 'string' && input.url.trim() !== '',
      has_script: input.script != null && input.script !== '',
      has_handler: handler !== undefined,
      is_static: input.slug?.startsWith(STATIC_SLUG_PREFIX) === true,
    },
  };
}

function hasMessagesInput(inputs: unknown): boolean {
  if (inputs === null || typeof inputs !== 'object') return false;
  const properties: unknown = (inputs as { properties?: unknown }).properties;
  return properties !== null && typeof properties === 'object' && Object.hasOwn(properties, 'messages');
}

// --- Revision data -------------------------------------------------------------------------------

const jsonObject = z.record(z.string(), z.unknown());

/** A workflow revision's `data` (E§1.2): strict at both levels, an unknown key is a 422 naming it. */
export const workflowRevisionDataSchema = z.strictObject({
  uri: z.string().nullish(),
  url: z.string().nullish(),
  headers: jsonObject.nullish(),
  runtime: z.string().nullish(),
  script: z.union([z.string(), jsonObject]).nullish(),
  schemas: z.strictObject({ parameters: jsonObject.nullish(), inputs: jsonObject.nullish(), outputs: jsonObject.nullish() }).nullish(),
  parameters: jsonObject.nullish(),
});
export type WorkflowRevisionData = z.infer<typeof workflowRevisionDataSchema>;

// --- Stored data ---------------------------------------------------------------------------------

/**
 * The data a commit stores (E§2.7): an `agenta` `skill` keeps only `uri`, `parameters` and
 * `schemas.parameters`; anything else as sent. Not done (decisions → "Versioned artifacts"): the
 * reference's services `url` for non-builtin `agenta` URIs, and the handler-interface schemas.
 * Returns a new object; unparsable URIs are left for `inferRevisionFlags` to refuse.
 */
export function storedWorkflowData<T extends WorkflowRevisionData>(data: T): T {
  const uri = data.uri ? parseWorkflowUri(data.uri) : undefined;
  if (uri?.provider !== DEFAULT_PROVIDER || uri.key !== 'skill') return { ...data };
  const parameters = data.schemas?.parameters;
  // Every field of the data is optional: the cut keeps the type.
  return {
    ...(data.uri != null ? { uri: data.uri } : {}),
    ...(data.parameters != null ? { parameters: data.parameters } : {}),
    ...(parameters != null ? { schemas: { parameters } } : {}),
  } as T;
}
