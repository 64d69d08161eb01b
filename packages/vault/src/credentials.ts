// Which parts of a secret's `data` are credentials (reference accounts §6.1, §6.3), how they are
// hidden, previewed and kept across an update.
import type { SecretKind } from '@llm/contracts';

type Data = Record<string, unknown>;
const obj = (v: unknown): Data => (v && typeof v === 'object' && !Array.isArray(v) ? v as Data : {});

/** Credential keys inside `provider.extras` (custom providers), by name or env-style suffix. */
const CREDENTIAL_EXTRAS = new Set(['api_key', 'aws_access_key_id', 'aws_secret_access_key', 'aws_session_token', 'aws_bearer_token_bedrock', 'vertex_ai_credentials']);
export const isCredentialExtra = (key: string): boolean =>
  CREDENTIAL_EXTRAS.has(key.toLowerCase()) || /(key|secret|token|password|passwd|credential|auth|cookie|signature)/i.test(key);

/** The value field of a kind: where it sits in `data`. */
const VALUE_PATH: Record<SecretKind, readonly [string, string] | undefined> = {
  provider_key: ['provider', 'key'],
  custom_provider: ['provider', 'key'],
  sso_provider: ['provider', 'client_secret'],
  webhook_provider: ['provider', 'key'],
  custom_secret: ['secret', 'content'],
  subscription_provider: undefined,
};

/** The value of a secret as text (a json custom secret's content as JSON), or undefined when unset. */
export function valueOf(kind: SecretKind, data: Data): string | undefined {
  const path = VALUE_PATH[kind];
  if (!path) return undefined;
  const v = obj(data[path[0]])[path[1]];
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

const credentialExtras = (data: Data): Data => {
  const extras = obj(obj(data.provider).extras);
  return Object.fromEntries(Object.entries(extras).filter(([k]) => isCredentialExtra(k)));
};

/** The value when it is text (the only kind of value with a preview; a JSON secret has none). */
export function stringValueOf(kind: SecretKind, data: Data): string | undefined {
  const path = VALUE_PATH[kind];
  const v = path ? obj(data[path[0]])[path[1]] : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** A value is set, or a credential extra is. */
export function isConfigured(kind: SecretKind, data: Data): boolean {
  const v = valueOf(kind, data);
  return (v !== undefined && v !== '') || Object.keys(credentialExtras(data)).length > 0;
}

/** `data` without its credentials, as a response shows a write-only secret (reference §6.3). */
export function withoutCredentials(kind: SecretKind, data: Data): Data {
  const path = VALUE_PATH[kind];
  const out: Data = { ...data };
  if (path) {
    const holder: Data = { ...obj(out[path[0]]) };
    delete holder[path[1]];
    out[path[0]] = holder;
  }
  const provider = obj(out.provider);
  if (provider.extras !== undefined) {
    out.provider = { ...provider, extras: Object.fromEntries(Object.entries(obj(provider.extras)).filter(([k]) => !isCredentialExtra(k))) };
  }
  // A subscription's login is never returned, whatever the row says.
  if (kind === 'subscription_provider') for (const k of ['login', 'login_attempt']) delete out[k];
  return out;
}

const slugsOf = (models: unknown): Array<{ slug: unknown }> | undefined =>
  Array.isArray(models) ? models.map((m) => ({ slug: obj(m).slug })) : undefined;
const defined = (o: Data): Data => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
/** A URL without its query and fragment (where a key may have been put). */
const bareUrl = (u: unknown): unknown => (typeof u === 'string' ? u.replace(/[?#].*$/s, '') : u);

/**
 * What the log and the tables may hold in clear: only fields known not to be credentials (an
 * allow-list — extras, model extras and anything unknown travel sealed only).
 */
export function publicData(kind: SecretKind, data: Data): Data {
  const p = obj(data.provider);
  switch (kind) {
    case 'provider_key': return defined({ kind: data.kind, provider: {}, models: slugsOf(data.models), harnesses: data.harnesses });
    case 'custom_provider':
      return defined({
        kind: data.kind, provider: defined({ url: bareUrl(p.url), version: p.version }), models: slugsOf(data.models), harnesses: data.harnesses,
        provider_slug: data.provider_slug, model_keys: data.model_keys,
      });
    case 'sso_provider': return { provider: defined({ client_id: p.client_id, issuer_url: bareUrl(p.issuer_url), scopes: p.scopes }) };
    case 'webhook_provider': return { provider: {} };
    case 'custom_secret': return { secret: defined({ format: obj(data.secret).format }) };
    case 'subscription_provider':
      return defined({
        provider: data.provider, harnesses: data.harnesses, models: slugsOf(data.models),
        login_state: data.login_state, login_version: data.login_version, login_generation: data.login_generation,
      });
  }
}

/** Preview of a write-only value: `****` below 20 characters, else a few characters of each end. */
export function preview(value: string): string {
  const chars = [...value];
  if (chars.length < 20) return '****';
  const d = Math.min(6, Math.floor(chars.length / 4));
  return `${chars.slice(0, Math.ceil(d / 2)).join('')}****${chars.slice(chars.length - Math.floor(d / 2)).join('')}`;
}

export type UpdateProblem = { problem: 'empty_value' } | { problem: 'needs_value' };

/** The family of a secret whose value can be kept: kind, provider kind, custom-secret format. */
const family = (kind: SecretKind, data: Data): string =>
  `${kind}/${String(data.kind ?? '')}/${kind === 'custom_secret' ? String(obj(data.secret).format ?? '') : ''}`;

/**
 * The `data` an update stores: an omitted value field keeps the stored value (same family only),
 * omitted credential extras, models and harnesses keep theirs.
 */
export function mergeUpdate(kind: SecretKind, stored: { kind: SecretKind; data: Data }, sent: Data): Data | UpdateProblem {
  const path = VALUE_PATH[kind];
  const sentValue = path ? obj(sent[path[0]])[path[1]] : undefined;
  if (sentValue === '') return { problem: 'empty_value' };
  const sameFamily = family(kind, sent) === family(stored.kind, stored.data);
  const out: Data = { ...sent };
  if (path && sentValue === undefined) {
    // Another kind, provider or format: the stored value does not fit it, a new one must come.
    if (!sameFamily) return { problem: 'needs_value' };
    const kept = obj(stored.data[path[0]])[path[1]];
    if (kept !== undefined) out[path[0]] = { ...obj(out[path[0]]), [path[1]]: kept };
  }
  if (sameFamily) {
    const storedExtras = credentialExtras(stored.data);
    if (Object.keys(storedExtras).length > 0 && out.provider !== undefined) {
      const p = obj(out.provider);
      out.provider = { ...p, extras: { ...storedExtras, ...obj(p.extras) } };
    }
  }
  for (const k of ['models', 'harnesses']) if (out[k] === undefined && stored.data[k] !== undefined && stored.kind === kind) out[k] = stored.data[k];
  return out;
}
