// What a vault request becomes before it is sealed (its data shape is checked by the contract): the
// value required on creation, a custom provider's URL vetted and its server-set fields derived (reference accounts §6).
import { INITIAL_LOGIN_FIELDS, slugify } from '@llm/account-model';
import { SUBSCRIPTION_LOGIN_FIELDS, type SecretKind } from '@llm/contracts';
import { invalid } from '@llm/errors';
import { RequestValidationError } from '@llm/http';
import { parseIp, specialAddressClass } from '@llm/outbound';
import { isConfigured, valueOf } from '@llm/vault';

type Data = Record<string, unknown>;

const refused = (loc: Array<string | number>, msg: string): RequestValidationError =>
  new RequestValidationError([{ loc: ['body', ...loc], msg, type: 'value_error' }]);

/** Creation needs the credential (a subscription's login comes later, from its sign-in). */
export function requireValue(kind: SecretKind, data: Data): void {
  if (kind === 'subscription_provider') return;
  const v = valueOf(kind, data);
  if ((v === undefined || v === '') && !isConfigured(kind, data)) throw refused(['secret', 'data'], 'a value is required when a secret is created');
}

/** http(s) (https unless insecure mode), no credentials, not localhost, not a special literal IP; no DNS at save time. */
export function vetProviderUrl(url: string, allowInsecure: boolean): void {
  const bad = (why: string) => refused(['secret', 'data', 'provider', 'url'], `custom_provider.url is invalid: ${why}`);
  let u: URL;
  try { u = new URL(url); } catch { throw bad('not an absolute URL'); }
  if (u.protocol !== 'https:' && !(allowInsecure && u.protocol === 'http:')) throw bad(allowInsecure ? 'must be http or https' : 'must be https');
  if (u.username || u.password) throw bad('must not carry credentials');
  const host = u.hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) throw bad('must not be localhost');
  const ip = parseIp(host);
  if (ip && specialAddressClass(ip) !== undefined) throw bad('must not be a private or reserved address');
}

/** A subscription's login fields are the server's (§6.4, §7): a client that sends any is refused. */
export function refuseLoginFields(kind: SecretKind, data: Data): void {
  if (kind !== 'subscription_provider') return;
  const sent = SUBSCRIPTION_LOGIN_FIELDS.filter((k) => data[k] !== undefined);
  if (sent.length > 0) throw invalid('login_fields_refused', `The login of a subscription connection is set by its sign-in, not by clients (${sent.join(', ')}).`);
}

/**
 * The server-set fields: a custom provider's slug from the name and the model keys under it; a
 * subscription's login fields, kept from the stored subscription (`stored`, on an update) or initial.
 */
export function withServerFields(kind: SecretKind, name: string, data: Data, stored?: { kind: SecretKind; data: Data }): Data {
  if (kind === 'subscription_provider') {
    const kept = stored?.kind === 'subscription_provider'
      ? Object.fromEntries(SUBSCRIPTION_LOGIN_FIELDS.filter((k) => stored.data[k] !== undefined).map((k) => [k, stored.data[k]]))
      : { ...INITIAL_LOGIN_FIELDS };
    return { ...data, ...kept };
  }
  if (kind !== 'custom_provider') return data;
  const providerSlug = slugify(name) || 'custom';
  const models = Array.isArray(data.models) ? data.models as Array<{ slug: string }> : [];
  return { ...data, provider_slug: providerSlug, model_keys: models.map((m) => `${providerSlug}/${m.slug}`) };
}

/** The display label of a standard provider (the name of an unnamed provider key). */
export function providerLabel(providerKind: string): string {
  const LABELS: Record<string, string> = {
    openai: 'OpenAI', cohere: 'Cohere', anyscale: 'Anyscale', deepinfra: 'DeepInfra', alephalpha: 'Aleph Alpha', groq: 'Groq', minimax: 'MiniMax',
    mistral: 'Mistral', anthropic: 'Anthropic', perplexityai: 'Perplexity', together_ai: 'Together AI', openrouter: 'OpenRouter', gemini: 'Gemini',
  };
  return LABELS[providerKind] ?? providerKind;
}
