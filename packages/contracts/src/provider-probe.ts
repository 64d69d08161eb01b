// The provider probe (reference §8): a credential is tried once against a provider's model list
// and dropped. The request is the only place the credential exists, so its 422s must never carry
// it back (the HTTP renderer shows no `input`; the messages here never quote a value).
import { z } from 'zod';
import { jsonObject, text, texts, TEXT_LIMITS } from './text.ts';

// The size is measured only once jsonObject passed (pipe): JSON.stringify recurses, and on a value
// nested 10^5 deep it would overflow the stack before the depth check could refuse it.
const extras = jsonObject.pipe(z.record(z.string(), z.unknown()).refine((e) => JSON.stringify(e).length <= 16_384, 'extras is larger than 16 KiB'));

/**
 * A key goes out in a request header (`Authorization: Bearer <key>`, `x-api-key`, `api-key`, …).
 * Node refuses to send CR, LF, NUL and anything above U+00FF in a header (it throws, and a thrown
 * error would be a 500), and a byte in U+0080-U+00FF goes out as Latin-1 that each provider may read
 * differently. No provider issues such keys: every one is a token of printable ASCII (base64,
 * base64url, hex, `sk-…`), and a space inside one is a paste accident, not part of the key. So
 * the key is printable ASCII without spaces (U+0021-U+007E), or empty (which counts as no key);
 * the message names the rule, never the character.
 */
const HEADER_SAFE_KEY = /^[\x21-\x7E]*$/;
const PROBE_KEY_CHARACTERS = 'key must contain only printable ASCII characters without spaces';

/**
 * Unknown keys are dropped, as the reference does: a newer client (one sending the later
 * revision's `secret_id`, say) still gets an answer, and a dropped key reaches no store or log.
 */
export const probeProviderRequest = z.object({
  /** Checked against the provider kinds by the command side, which words the 422 as §8 does. */
  kind: text({ min: 1, max: TEXT_LIMITS.shortText, label: 'kind' }),
  provider: z.object({
    key: text({ max: TEXT_LIMITS.secret, label: 'key' }).regex(HEADER_SAFE_KEY, { error: PROBE_KEY_CHARACTERS }).nullish(),
    url: text({ max: TEXT_LIMITS.url, label: 'url' }).nullish(),
    version: texts.shortText.nullish(),
    extras: extras.nullish(),
  }),
});
export type ProbeProviderRequest = z.infer<typeof probeProviderRequest>;

export const CREDENTIAL_STATUSES = ['valid', 'invalid', 'unknown'] as const;
export const DISCOVERY_STATUSES = ['fetched', 'unsupported', 'failed'] as const;

export const probeProviderResponse = z.object({
  credential: z.object({ status: z.enum(CREDENTIAL_STATUSES), message: z.string() }),
  discovery: z.object({ status: z.enum(DISCOVERY_STATUSES), models: z.array(z.string()) }),
  /** UTC, ending in `Z`. */
  fetched_at: z.string(),
});
export type ProbeProviderResponse = z.infer<typeof probeProviderResponse>;
