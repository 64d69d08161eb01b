// What Postgres text and jsonb cannot hold: NUL characters and lone UTF-16 surrogates. The events
// table keeps every event's payload for queries, including the payload of an event that was refused
// for such text, so those values (and keys) are stored with U+FFFD in their place.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const MAX_DEPTH = 64;

export const storableText = (s: string): string => s.replace(UNSTORABLE, '\uFFFD');

function clean(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return storableText(v);
  if (typeof v === 'bigint') return v.toString();
  if (!v || typeof v !== 'object') return v;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(v)) return v.map((x) => clean(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[storableText(k)] = clean(x, depth + 1);
  return out;
}

/** The payload as JSON text Postgres accepts (depth-capped, unstorable text replaced). */
export function storableJson(value: unknown): string {
  return JSON.stringify(clean(value, 0)) ?? 'null';
}
