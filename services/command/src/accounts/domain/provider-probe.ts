// The provider probe's rules (reference §8), without I/O: which kinds exist, what each one's model
// list request looks like, and what the provider's answer says about the key and the models. The
// handler sends the one request a plan describes and hands the answer back here.
import type { ProbeProviderRequest, ProbeProviderResponse } from '@llm/contracts';

/** Kinds with a hosted model list: the key is proven by reading it. */
const AUTHENTICATED = ['openai', 'anthropic', 'gemini', 'groq', 'mistral', 'together_ai', 'openrouter', 'cohere'] as const;
/** Kinds whose model list anyone may read: the list is fetched without the key, which stays unproven. */
const PUBLIC_CATALOGS = ['deepinfra', 'perplexityai'] as const;
/** Kinds whose address is the caller's (an OpenAI-compatible server, an Azure resource). */
const URL_BASED = ['custom', 'azure'] as const;
/**
 * Kinds with no model list a key can be proven against in one plain read. bedrock and vertex_ai
 * have one, but only behind a request signed with cloud credentials (SigV4, a service-account
 * token exchange), which this probe does not make (docs/decisions.md).
 */
const UNTESTABLE = ['minimax', 'anyscale', 'alephalpha', 'sagemaker', 'bedrock', 'vertex_ai'] as const;

export type HostedKind = (typeof AUTHENTICATED)[number] | (typeof PUBLIC_CATALOGS)[number];
export type ProviderKind = HostedKind | (typeof URL_BASED)[number] | (typeof UNTESTABLE)[number];

export const HOSTED_KINDS: readonly HostedKind[] = [...AUTHENTICATED, ...PUBLIC_CATALOGS];
export const PROVIDER_KINDS: readonly ProviderKind[] = [...HOSTED_KINDS, ...URL_BASED, ...UNTESTABLE];

/** Spellings the reference rewrites (§6.1). */
const ALIASES: Readonly<Record<string, ProviderKind>> = { mistralai: 'mistral', togetherai: 'together_ai' };

const LABELS: Record<ProviderKind, string> = {
  openai: 'OpenAI', anthropic: 'Anthropic', gemini: 'Gemini', groq: 'Groq', mistral: 'Mistral AI', together_ai: 'Together AI',
  openrouter: 'OpenRouter', cohere: 'Cohere', deepinfra: 'DeepInfra', perplexityai: 'Perplexity', custom: 'the custom provider',
  azure: 'Azure OpenAI', minimax: 'MiniMax', anyscale: 'Anyscale', alephalpha: 'Aleph Alpha', sagemaker: 'SageMaker',
  bedrock: 'Bedrock', vertex_ai: 'Vertex AI',
};

/** Where each hosted kind's API lives; PROVIDER_PROBE_BASE_URLS or the request's `url` replace it. */
export const DEFAULT_BASE_URLS: Record<HostedKind, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  gemini: 'https://generativelanguage.googleapis.com/v1beta',
  groq: 'https://api.groq.com/openai/v1',
  mistral: 'https://api.mistral.ai/v1',
  together_ai: 'https://api.together.xyz/v1',
  openrouter: 'https://openrouter.ai/api/v1',
  cohere: 'https://api.cohere.com/v1',
  deepinfra: 'https://api.deepinfra.com/v1/openai',
  perplexityai: 'https://api.perplexity.ai',
};

/** Anthropic's API version header; the model list has not changed shape since it. */
export const ANTHROPIC_VERSION = '2023-06-01';
/** Azure's data-plane API version when the request names none (`provider.version`). */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

export const isKnownKind = (k: string): k is ProviderKind => (PROVIDER_KINDS as readonly string[]).includes(k);

/** The canonical kind of a spelling, aliases rewritten; undefined for a kind nobody can test. */
export function normaliseKind(k: string): ProviderKind | undefined {
  const kind = Object.hasOwn(ALIASES, k) ? ALIASES[k] : k;
  return kind !== undefined && isKnownKind(kind) ? kind : undefined;
}

export const supportedKinds = (): string[] => [...PROVIDER_KINDS].sort();

/** A request the probe refuses before sending anything: answered 422 `{"detail": message}`. */
export interface ProbeRefusal {
  code: 'unknown_kind' | 'base_url_required' | 'bad_url';
  message: string;
}

export type CredentialResult = ProbeProviderResponse['credential'];
export type DiscoveryResult = ProbeProviderResponse['discovery'];
export interface ProbeOutcome { credential: CredentialResult; discovery: DiscoveryResult }

/**
 * The one read to make. `key` says what a 2xx proves: `sent` proves the key; a `public_catalog`
 * read and a custom server asked without a key (`none`) prove nothing about it.
 */
export interface ProbeRequest {
  kind: ProviderKind;
  label: string;
  url: string;
  headers: Record<string, string>;
  key: 'sent' | 'public_catalog' | 'none';
}

export type ProbePlan =
  | { ok: true; send: ProbeRequest }
  | { ok: true; answer: ProbeOutcome }
  | { ok: false; refusal: ProbeRefusal };

export interface PlanOptions {
  /** Operator overrides of hosted kinds' base URLs (PROVIDER_PROBE_BASE_URLS). */
  baseUrls?: Partial<Record<HostedKind, string>>;
}

const refuse = (code: ProbeRefusal['code'], message: string): ProbePlan => ({ ok: false, refusal: { code, message } });
const present = (s: string | null | undefined): s is string => s !== undefined && s !== null && s.trim() !== '';

export const BASE_URL_REQUIRED = 'This provider needs a base URL to test.';
/** The credential message when a kind that proves a key by sending it was given none. */
export const NO_KEY = 'No key was given.';
export const unknownKindMessage = (k: string): string => `'${k}' is not a provider Agenta can test. Supported: ${supportedKinds().join(', ')}.`;

/** What to send for a probe request, or the answer when nothing may be sent, or why it is refused. */
export function planProbe(req: ProbeProviderRequest, opts: PlanOptions = {}): ProbePlan {
  const kind = normaliseKind(req.kind);
  if (kind === undefined) return refuse('unknown_kind', unknownKindMessage(req.kind));
  const label = LABELS[kind];
  if ((UNTESTABLE as readonly string[]).includes(kind)) {
    return { ok: true, answer: { credential: { status: 'unknown', message: `A ${label} key cannot be tested; nothing was sent.` }, discovery: { status: 'unsupported', models: [] } } };
  }
  const { key, url, version } = req.provider;
  const isUrlBased = kind === 'custom' || kind === 'azure';
  if (isUrlBased && !present(url)) return refuse('base_url_required', BASE_URL_REQUIRED);
  const base = present(url) ? url.trim() : opts.baseUrls?.[kind as HostedKind] ?? DEFAULT_BASE_URLS[kind as HostedKind];
  const isPublic = (PUBLIC_CATALOGS as readonly string[]).includes(kind);
  const target = modelListUrl(kind, base, present(version) ? version.trim() : undefined);
  if (target === undefined) return refuse('bad_url', 'The URL is not valid.');
  // A custom server may need no key (a local gateway); every other authenticated kind does, and
  // without one there is nothing to prove: §8's verdict on a missing key, nothing sent.
  if (!isPublic && kind !== 'custom' && !present(key)) {
    return { ok: true, answer: { credential: { status: 'invalid', message: NO_KEY }, discovery: { status: 'failed', models: [] } } };
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  const sendKey = !isPublic && present(key);
  if (sendKey) Object.assign(headers, authHeaders(kind, key));
  return {
    ok: true,
    send: { kind, label: kind === 'custom' ? hostLabel(target) : label, url: target, headers, key: sendKey ? 'sent' : isPublic ? 'public_catalog' : 'none' },
  };
}

function authHeaders(kind: ProviderKind, key: string): Record<string, string> {
  switch (kind) {
    case 'anthropic': return { 'x-api-key': key, 'anthropic-version': ANTHROPIC_VERSION };
    // A header rather than `?key=`: URLs end up in logs and error messages, headers do not.
    case 'gemini': return { 'x-goog-api-key': key };
    case 'azure': return { 'api-key': key };
    default: return { authorization: `Bearer ${key}` };
  }
}

/** The model list URL under `base` (its path kept, its query kept), or undefined when `base` is no URL. */
export function modelListUrl(kind: ProviderKind, base: string, version?: string): string | undefined {
  let u: URL;
  try { u = new URL(base); } catch { return undefined; }
  const path = u.pathname.replace(/\/+$/, '');
  const query: Record<string, string> = {};
  switch (kind) {
    case 'azure':
      // The resource endpoint (`https://<name>.openai.azure.com`), with or without `/openai`.
      u.pathname = `${path.endsWith('/openai') ? path : `${path}/openai`}/models`;
      query['api-version'] = version ?? AZURE_DEFAULT_API_VERSION;
      break;
    case 'openrouter':
      // OpenRouter's `/models` is public; `/models/user` needs the key, so one read proves it.
      u.pathname = `${path}/models/user`;
      break;
    case 'anthropic':
      u.pathname = `${path}/models`;
      query.limit = '1000';
      break;
    case 'gemini':
      u.pathname = `${path}/models`;
      query.pageSize = '1000';
      break;
    default:
      u.pathname = `${path}/models`;
  }
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
  u.hash = '';
  return u.href;
}

function hostLabel(url: string): string {
  try { return new URL(url).host; } catch { return LABELS.custom; }
}

/** Statuses that say "there is no model list here" rather than "something went wrong". */
const NO_MODEL_ENDPOINT = new Set([404, 405, 501]);

/** What the provider's answer says. `body` is the response text (bounded by the outbound guard). */
export function interpretAnswer(req: ProbeRequest, status: number, body: string): ProbeOutcome {
  const { label } = req;
  if (status >= 200 && status <= 299) {
    const models = extractModelIds(req.kind, body);
    const credential: CredentialResult = req.key === 'sent'
      ? { status: 'valid', message: `${label} accepted the key.` }
      : req.key === 'public_catalog'
        ? { status: 'unknown', message: `${label} lists its models publicly, so the key was not checked.` }
        : { status: 'unknown', message: `No key was given; ${label} lists its models without one.` };
    if (models === undefined) {
      return { credential, discovery: { status: 'failed', models: [] } };
    }
    return { credential, discovery: { status: 'fetched', models } };
  }
  if (req.key === 'sent' && rejectsKey(req.kind, status, body)) {
    return { credential: { status: 'invalid', message: `${label} rejected the key.` }, discovery: { status: 'failed', models: [] } };
  }
  if (NO_MODEL_ENDPOINT.has(status)) {
    return { credential: { status: 'unknown', message: `${label} has no model list to test the key against (HTTP ${status}).` }, discovery: { status: 'unsupported', models: [] } };
  }
  const redirect = status >= 300 && status <= 399 ? ' (redirects are not followed)' : '';
  return { credential: { status: 'unknown', message: `${label} answered HTTP ${status}${redirect}.` }, discovery: { status: 'failed', models: [] } };
}

function rejectsKey(kind: ProviderKind, status: number, body: string): boolean {
  if (status === 401 || status === 403) return true;
  // Google answers a bad API key with 400 INVALID_ARGUMENT, reason API_KEY_INVALID.
  return kind === 'gemini' && status === 400 && body.includes('API_KEY_INVALID');
}

export type ProbeFailure = 'timeout' | 'unreachable' | 'too_large';

/** The outcome when no usable answer came back. `status` is the answer's, when one began. */
export function failureOutcome(req: ProbeRequest, failure: ProbeFailure, status?: number): ProbeOutcome {
  const failed = (message: string): ProbeOutcome => ({ credential: { status: 'unknown', message }, discovery: { status: 'failed', models: [] } });
  switch (failure) {
    case 'timeout': return failed(`Could not reach ${req.label} in time.`);
    case 'unreachable': return failed(`Could not reach ${req.label}.`);
    case 'too_large':
      // The headers came back: a 2xx still proves the key, only the list is unreadable.
      if (status !== undefined && status >= 200 && status <= 299 && req.key === 'sent') {
        return { credential: { status: 'valid', message: `${req.label} accepted the key.` }, discovery: { status: 'failed', models: [] } };
      }
      return failed(`${req.label} answered with more than the probe reads.`);
  }
}

const MAX_MODELS = 5_000;
const MAX_ID_LENGTH = 512;

/**
 * Model ids of a model list: `{data:[{id}]}` (OpenAI and most others), a bare array (Together),
 * `{models:[{name}]}` (Gemini's `models/<id>`, Cohere). Undefined when the body is none of these.
 */
export function extractModelIds(kind: ProviderKind, body: string): string[] | undefined {
  let doc: unknown;
  try { doc = JSON.parse(body); } catch { return undefined; }
  const list = Array.isArray(doc) ? doc : field(doc, 'data') ?? field(doc, 'models');
  if (!Array.isArray(list)) return undefined;
  const ids = new Set<string>();
  for (const item of list) {
    let id = typeof item === 'string' ? item : stringField(item, 'id') ?? stringField(item, 'name');
    if (id === undefined) continue;
    if (kind === 'gemini' && id.startsWith('models/')) id = id.slice('models/'.length);
    if (id === '' || id.length > MAX_ID_LENGTH) continue;
    ids.add(id);
    if (ids.size >= MAX_MODELS) break;
  }
  return [...ids];
}

function field(doc: unknown, name: string): unknown {
  return doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>)[name] : undefined;
}

function stringField(doc: unknown, name: string): string | undefined {
  const v = field(doc, name);
  return typeof v === 'string' ? v : undefined;
}

/** The response body (§8): `fetched_at` in UTC ending with `Z`. */
export const probeResponse = (outcome: ProbeOutcome, now: Date): ProbeProviderResponse => ({
  credential: outcome.credential, discovery: outcome.discovery, fetched_at: now.toISOString(),
});
