// Identity strings name the ways a person proved who they are: `email:otp`, `email:password`,
// `social:<provider>`, `sso:<organization_slug>:<provider_slug>`. The access policy matches them by
// prefix, so a malformed one is not harmless noise: `sso:acme` or `email:*` could be mistaken for a
// pattern, and a client-supplied `sso:<org>:<provider>` must at least be well-formed before it is
// compared. The reference accepts any string here; we accept only this grammar.
import { z } from 'zod';
import { AppError } from '@llm/errors';

/** Slugs of organizations and providers inside `sso:` identities. */
const SLUG = '[a-z0-9_-]{1,64}';
const SOCIAL_PROVIDER = '[a-z0-9-]{1,64}';
const IDENTITY = new RegExp(`^(?:email:(?:otp|password)|social:${SOCIAL_PROVIDER}|sso:${SLUG}:${SLUG})$`);
const SLUG_ONLY = new RegExp(`^${SLUG}$`);

/** Sessions stay well under the 4 KiB a browser keeps per cookie. */
export const MAX_SESSION_IDENTITIES = 32;

const IDENTITY_MESSAGE = 'Invalid identity: expected email:otp, email:password, social:<provider> or sso:<organization>:<provider>';

export const identitySchema = z.string().regex(IDENTITY, { message: IDENTITY_MESSAGE }).brand<'Identity'>();
export type Identity = z.infer<typeof identitySchema>;

/** Body of `PATCH /auth/session/identities`; parse it with the HTTP layer's validator for a 422. */
export const sessionIdentitiesUpdateSchema = z.object({
  session_identities: z.array(identitySchema).max(MAX_SESSION_IDENTITIES),
});
export type SessionIdentitiesUpdate = z.infer<typeof sessionIdentitiesUpdateSchema>;

export type ParsedIdentity =
  | { kind: 'email'; method: 'otp' | 'password' }
  | { kind: 'social'; provider: string }
  | { kind: 'sso'; organization_slug: string; provider_slug: string };

export const isIdentity = (value: unknown): value is Identity => typeof value === 'string' && IDENTITY.test(value);

/** Splits a well-formed identity into its parts; anything else is `undefined`. */
export function parseIdentity(value: unknown): ParsedIdentity | undefined {
  if (!isIdentity(value)) return undefined;
  const [kind, a, b] = value.split(':') as [string, string, string | undefined];
  if (kind === 'email') return { kind, method: a === 'otp' ? 'otp' : 'password' };
  if (kind === 'social') return { kind, provider: a };
  return { kind: 'sso', organization_slug: a, provider_slug: b ?? '' };
}

/** `sso:<organization_slug>:<provider_slug>`, the third-party id of an organization's provider. */
export function ssoIdentity(organizationSlug: string, providerSlug: string): Identity {
  if (!SLUG_ONLY.test(organizationSlug) || !SLUG_ONLY.test(providerSlug)) {
    throw new TypeError('organization and provider slugs must match [a-z0-9_-]{1,64}');
  }
  return `sso:${organizationSlug}:${providerSlug}` as Identity;
}

/** One problem, in the shape of the spec's 422 `detail[]` entries. */
export interface IdentityIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/**
 * Refused identities. `issues` is ready for the HTTP layer's 422 (`detail[{loc,msg,type}]`);
 * `invalid` lists the offending values (identity strings are not credentials, echoing them is safe).
 */
export class InvalidIdentitiesError extends AppError {
  readonly issues: IdentityIssue[];
  readonly invalid: string[];

  constructor(issues: IdentityIssue[], invalid: string[]) {
    // Should this reach the central error handler unconverted, it still renders a useful 400.
    super({ code: 'invalid_identities', kind: 'invalid', message: 'Invalid session identities', details: { invalid_identities: invalid } });
    this.name = 'InvalidIdentitiesError';
    this.issues = issues;
    this.invalid = invalid;
  }
}

/** Validates a list of identities, reporting every bad entry at `<loc>[index]`. */
export function parseIdentities(values: readonly unknown[], loc: (string | number)[] = ['body', 'session_identities']): Identity[] {
  const issues: IdentityIssue[] = [];
  const invalid: string[] = [];
  values.forEach((value, index) => {
    if (isIdentity(value)) return;
    issues.push({ loc: [...loc, index], msg: IDENTITY_MESSAGE, type: 'value_error' });
    invalid.push(typeof value === 'string' ? value : JSON.stringify(value) ?? String(value));
  });
  if (issues.length > 0) throw new InvalidIdentitiesError(issues, invalid);
  return values as Identity[];
}

/**
 * The session's identities after a step-up: `current` first, then each new `supplied` one in the
 * order given, duplicates dropped. Throws `InvalidIdentitiesError` when any supplied value is
 * malformed (nothing is merged then) or the result would exceed `MAX_SESSION_IDENTITIES`.
 */
export function mergeIdentities(current: readonly Identity[], supplied: readonly unknown[]): Identity[] {
  const checked = parseIdentities(supplied);
  const merged = [...new Set<Identity>([...current, ...checked])];
  if (merged.length > MAX_SESSION_IDENTITIES) {
    throw new InvalidIdentitiesError(
      [{ loc: ['body', 'session_identities'], msg: `A session holds at most ${MAX_SESSION_IDENTITIES} identities`, type: 'too_long' }],
      [],
    );
  }
  return merged;
}
