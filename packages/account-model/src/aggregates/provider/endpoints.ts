// Where an SSO provider's sign-ins go: its issuer (discovery, token and keys all follow from it) and
// any endpoint URL kept in its settings' `extra`. Changing one of them points the provider at another
// party, which must get neither the stored client secret (it would arrive at the new token endpoint)
// nor the users linked through the old party (a subject means something only at its issuer).

export interface ProviderEndpoints {
  issuer_url: string;
  extra: unknown;
}

// An absolute URL with an authority (`https://…`), or a value stored under an endpoint-like key.
const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:\/\//i;
const ENDPOINT_KEY = /(?:endpoint|uri|url|issuer|host)$/i;
// `extra` is at most 8 KiB of JSON; deeper than this, a subtree is compared as a whole.
const MAX_DEPTH = 16;

const sameIssuer = (a: string): string => a.trim().replace(/\/+$/, '');

/** `path → value` of every endpoint-like value in `extra`. */
function endpointsIn(value: unknown, path = '', key = '', depth = 0, out = new Map<string, string>()): Map<string, string> {
  if (typeof value === 'string') {
    if (ABSOLUTE_URL.test(value.trim()) || ENDPOINT_KEY.test(key)) out.set(path, value.trim());
  } else if (value !== null && typeof value === 'object') {
    if (depth >= MAX_DEPTH) {
      out.set(path, JSON.stringify(value));
    } else {
      for (const [k, v] of Object.entries(value)) endpointsIn(v, `${path}/${k}`, k, depth + 1, out);
    }
  }
  return out;
}

/** The provider now sends sign-ins (and its client secret) somewhere else. */
export function endpointsChanged(before: ProviderEndpoints, after: ProviderEndpoints): boolean {
  if (sameIssuer(before.issuer_url) !== sameIssuer(after.issuer_url)) return true;
  const was = endpointsIn(before.extra);
  const now = endpointsIn(after.extra);
  if (was.size !== now.size) return true;
  for (const [path, value] of was) if (now.get(path) !== value) return true;
  return false;
}
