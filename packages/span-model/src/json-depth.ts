// Span attributes are user JSON of any shape, and recursive code (JSON.stringify on every read, our
// own walkers) overflows the stack on values nested a few thousand levels deep. Values are kept up
// to MAX_JSON_DEPTH levels; a container deeper than that is kept as its JSON text (a string, so
// nothing is lost), or, when even that overflows the stack, replaced by a marker string — so one
// span can never make its trace unreadable. The walk itself recurses at most `maxDepth` levels.
import type { JsonValue } from './span.ts';
import { setOwn } from './json-object.ts';

export const MAX_JSON_DEPTH = 64;
export const TOO_DEEP_MARKER = `[truncated: nested deeper than ${MAX_JSON_DEPTH} levels]`;

/** The value itself when it is shallow enough (no copy), otherwise a copy cut at `maxDepth`. */
export function capJsonDepth<T extends JsonValue>(value: T, maxDepth = MAX_JSON_DEPTH): T {
  return (exceeds(value, maxDepth) ? cut(value, maxDepth) : value) as T;
}

function exceeds(v: JsonValue, left: number): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (left <= 0) return true;
  if (Array.isArray(v)) { for (const x of v) if (exceeds(x, left - 1)) return true; return false; }
  for (const k in v) if (exceeds(v[k] as JsonValue, left - 1)) return true;
  return false;
}

function cut(v: JsonValue, left: number): JsonValue {
  if (typeof v !== 'object' || v === null) return v;
  if (left <= 0) {
    try { return JSON.stringify(v); } catch { return TOO_DEEP_MARKER; }
  }
  if (Array.isArray(v)) return v.map((x) => cut(x, left - 1));
  const out: { [k: string]: JsonValue } = {};
  for (const k in v) setOwn(out, k, cut(v[k] as JsonValue, left - 1));
  return out;
}
