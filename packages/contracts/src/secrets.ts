// Vault secrets (reference accounts §6): the request bodies and the public response. Which fields
// are credentials, and how a value is hidden, is @llm/vault's; these are the shapes.
import { z } from 'zod';
import { jsonObject, text, texts, TEXT_LIMITS } from './text.ts';

export const STANDARD_PROVIDER_KINDS = [
  'openai', 'cohere', 'anyscale', 'deepinfra', 'alephalpha', 'groq', 'minimax', 'mistral', 'anthropic', 'perplexityai', 'together_ai', 'openrouter', 'gemini',
] as const;
export const CUSTOM_PROVIDER_KINDS = ['custom', 'azure', 'bedrock', 'sagemaker', 'vertex_ai', ...STANDARD_PROVIDER_KINDS] as const;
export const SECRET_KINDS = ['provider_key', 'custom_provider', 'sso_provider', 'webhook_provider', 'custom_secret', 'subscription_provider'] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];

/** The server-owned fields of a subscription secret's data (§7): never written by a client. */
export const SUBSCRIPTION_LOGIN_FIELDS = ['login', 'login_version', 'login_generation', 'login_state', 'login_error', 'login_attempt'] as const;
export type SubscriptionLoginField = (typeof SUBSCRIPTION_LOGIN_FIELDS)[number];

const ALIASES: Record<string, string> = { mistralai: 'mistral', togetherai: 'together_ai' };
const providerKind = <K extends readonly string[]>(kinds: K) =>
  z.string().max(64).transform((k) => ALIASES[k] ?? k).pipe(z.enum(kinds as unknown as [K[number], ...K[number][]]));

const value = text({ max: TEXT_LIMITS.secret });
const model = z.strictObject({ slug: texts.name.min(1), extras: jsonObject.optional() });
const models = z.array(model).max(1_000);
const harnesses = z.array(texts.name.min(1)).max(100);
const slug = text({ min: 1, max: TEXT_LIMITS.slug }).regex(/^[a-zA-Z0-9_-][a-zA-Z0-9_.-]*$/, 'must be URL-safe: letters, digits, "_", "-" and "." (not first)');

/** A flat JSON object of strings, numbers, booleans and nulls (custom secrets in json format). */
const flatJson = z.record(text({ max: TEXT_LIMITS.key }), z.union([text({ max: TEXT_LIMITS.secret }), z.number(), z.boolean(), z.null()]), { error: 'must be a flat object of strings, numbers, booleans and nulls' });

/** `data` per kind. Value fields are optional here: creation requires them, an update may keep the stored one. */
export const secretDataByKind = {
  provider_key: z.strictObject({ kind: providerKind(STANDARD_PROVIDER_KINDS), provider: z.strictObject({ key: value.optional() }), models: models.optional(), harnesses: harnesses.optional() }),
  custom_provider: z.strictObject({
    kind: providerKind(CUSTOM_PROVIDER_KINDS),
    provider: z.strictObject({ url: texts.url.optional(), version: texts.shortText.optional(), key: value.optional(), extras: jsonObject.optional() }),
    // Required on creation (the route says so); an update may omit them to keep the stored ones.
    models: models.optional(), harnesses: harnesses.optional(),
  }),
  sso_provider: z.strictObject({
    provider: z.strictObject({
      client_id: texts.shortText.min(1), client_secret: value.optional(), issuer_url: texts.url,
      scopes: z.array(texts.shortText).max(32).default([]), extra: jsonObject.default({}),
    }),
  }),
  webhook_provider: z.strictObject({ provider: z.strictObject({ key: value.optional() }) }),
  custom_secret: z.strictObject({
    secret: z.discriminatedUnion('format', [
      z.strictObject({ format: z.literal('text'), content: value.optional() }),
      z.strictObject({ format: z.literal('json'), content: flatJson.optional() }),
    ]),
  }),
  // The login fields are the server's: accepted here only so that the route can refuse them with a 400 (§6.4), not a 422.
  subscription_provider: z.strictObject({
    provider: z.literal('chatgpt'), harnesses: harnesses.optional(), models: models.optional(),
    ...Object.fromEntries(SUBSCRIPTION_LOGIN_FIELDS.map((k) => [k, z.unknown().optional()])) as Record<SubscriptionLoginField, z.ZodOptional<z.ZodUnknown>>,
  }),
} as const;

export type SecretData = { [K in SecretKind]: z.infer<(typeof secretDataByKind)[K]> };

/** `{kind, data}` with the kind's data shape (value fields optional: see secretDataByKind). */
const secretBody = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('provider_key'), data: secretDataByKind.provider_key }),
  z.strictObject({ kind: z.literal('custom_provider'), data: secretDataByKind.custom_provider }),
  z.strictObject({ kind: z.literal('sso_provider'), data: secretDataByKind.sso_provider }),
  z.strictObject({ kind: z.literal('webhook_provider'), data: secretDataByKind.webhook_provider }),
  z.strictObject({ kind: z.literal('custom_secret'), data: secretDataByKind.custom_secret }),
  z.strictObject({ kind: z.literal('subscription_provider'), data: secretDataByKind.subscription_provider }),
]);
const header = z.strictObject({ name: texts.name.nullish(), description: texts.description.nullish() });

export const secretCreate = z.strictObject({
  header,
  secret: secretBody,
  slug: slug.optional(),
  write_only: z.boolean().default(true),
  managed_by: z.unknown().optional(),
});
export const secretUpdate = z.strictObject({
  header: header.optional(),
  secret: secretBody.optional(),
  write_only: z.unknown().optional(),
  managed_by: z.unknown().optional(),
});
export type SecretCreate = z.infer<typeof secretCreate>;
export type SecretUpdate = z.infer<typeof secretUpdate>;

/** PublicSecretResponseDTO (nulls omitted). */
export interface PublicSecret {
  id: string;
  slug: string;
  kind: string;
  header: { name?: string; description?: string };
  data: Record<string, unknown>;
  lifecycle: { created_at: string; updated_at?: string; updated_by_id?: string };
  write_only: boolean;
  managed_by?: string;
  value_status: { configured: boolean; preview?: string };
}
