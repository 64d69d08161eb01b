// Text as the stores can hold it, checked once at the request boundary. Postgres refuses NUL
// (U+0000) in `text` and `jsonb`, and a lone UTF-16 surrogate has no UTF-8 form (it is mangled on
// the way to Kafka). Either one, once appended, is an event that can never be applied as sent, so
// every string a request carries goes through these schemas and the request gets a 422 naming the
// field instead. Every string also has a maximum length, counted in Unicode code points as zod
// counts them (an emoji of one code point counts 1). The limits are meant never to meet a real
// client; span content (attribute values, status messages) is bounded by the body limit only.
import { z } from 'zod';

/** Maximum lengths per kind of field (docs/limits-and-failures.md, "Input limits"). */
export const TEXT_LIMITS = {
  /** Identifiers and references as sent (trace/span ids, ref ids, organization ids, key prefixes). */
  id: 256,
  slug: 64,
  /** Names of queries, organizations, workspaces, projects, domains, providers and users. */
  name: 255,
  email: 320,
  url: 2_048,
  /** Short free text: span and event names, span types, timestamps as text, filter fields and keys, client ids. */
  shortText: 1_024,
  secret: 4_096,
  /** Descriptions and commit messages. */
  description: 10_000,
  /** Span content (status messages, strings inside free-form JSON): the default body limit. */
  longText: 10 * 1024 * 1024,
  /** Keys of records and of free-form JSON objects (attribute keys, tag keys, trace ids as keys). */
  key: 1_024,
  /** Nesting levels of a free-form JSON value (the value itself is level 1). */
  jsonDepth: 64,
} as const;

const NUL = 'must not contain NUL (U+0000)';
const SURROGATE = 'must not contain a lone UTF-16 surrogate (U+D800-U+DFFF without its pair)';

// String.prototype.isWellFormed is ES2024 (Node 20 has it; the project's lib is ES2023).
const isWellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

/** Why `s` cannot be stored, or undefined when it can. */
export function textProblem(s: string): string | undefined {
  if (s.includes('\u0000')) return NUL;
  if (!isWellFormed(s)) return SURROGATE;
  return undefined;
}

export interface TextOptions {
  max: number;
  min?: number;
  /** Names the field in the messages (`field must be a string`); zod's wording otherwise. */
  label?: string;
}

/** A string the stores can hold, of at most `max` (and at least `min`) code points. */
export function text({ max, min, label }: TextOptions): z.ZodString {
  const the = label === undefined ? '' : `${label} `;
  let s = label === undefined
    ? z.string()
    : z.string({ error: (iss) => (iss.input === undefined ? `${label} is required` : `${label} must be a string`) });
  if (min !== undefined) s = s.min(min, { error: min === 1 ? `${the}must not be empty` : `${the}must be at least ${min} characters` });
  return s.max(max, { error: `${the}must be at most ${max} characters` }).superRefine((v, ctx) => {
    const problem = textProblem(v);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `${the}${problem}`, input: v });
  });
}

/** Named presets; add `.optional()`, `.nullish()`, `.regex(…)` per field. */
export const texts = {
  id: text({ max: TEXT_LIMITS.id }),
  slug: text({ max: TEXT_LIMITS.slug }),
  name: text({ max: TEXT_LIMITS.name }),
  url: text({ min: 1, max: TEXT_LIMITS.url }),
  shortText: text({ max: TEXT_LIMITS.shortText }),
  secret: text({ min: 1, max: TEXT_LIMITS.secret }),
  description: text({ max: TEXT_LIMITS.description }),
  longText: text({ max: TEXT_LIMITS.longText }),
  /** zod's e-mail grammar is ASCII, so an address holds no NUL or surrogate either. */
  email: z.email({ error: 'value is not a valid email address' }).max(TEXT_LIMITS.email, { error: `must be at most ${TEXT_LIMITS.email} characters` }),
} as const;

/** Keys of records: `z.record(textKey, …)`, or `textRecord(…)`, which words the 422 better. */
export const textKey = text({ max: TEXT_LIMITS.key, label: 'key' });

/**
 * A record with storable keys. zod reports a bad key as "Invalid key in record" with the reason
 * nested, where the 422 renderer does not look; this lifts the reason into the message.
 */
export function textRecord<V extends z.ZodType>(value: V): z.ZodRecord<typeof textKey, V> {
  return z.record(textKey, value, {
    error: (iss) => (iss.code === 'invalid_key' ? iss.issues.map((i) => i.message).join('; ') || 'invalid key' : undefined),
  });
}

type Segment = string | number;

/** More than `max` code points (as zod's max counts); only an overflow in UTF-16 units is counted. */
function longerThan(s: string, max: number): boolean {
  if (s.length <= max) return false;
  let n = 0;
  for (const _ of s) if (++n > max) return true;
  return false;
}

/** JSON.stringify escapes NUL and lone surrogates, so the quoted form is storable. */
const quote = (k: string): string => JSON.stringify(k.length > 40 ? `${k.slice(0, 37)}...` : k);

/**
 * The first reason `value` (parsed JSON) cannot be stored: a key or string holding NUL or a lone
 * surrogate, a key or string too long, or nesting deeper than TEXT_LIMITS.jsonDepth. Iterative, so a
 * hostile depth cannot exhaust the stack here.
 */
export function jsonProblem(value: unknown): { path: Segment[]; message: string } | undefined {
  const stack: Array<{ value: unknown; path: Segment[]; depth: number }> = [{ value, path: [], depth: 1 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value: v, path, depth } = next;
    if (typeof v === 'string') {
      if (longerThan(v, TEXT_LIMITS.longText)) return { path, message: `must be at most ${TEXT_LIMITS.longText} characters` };
      const problem = textProblem(v);
      if (problem !== undefined) return { path, message: problem };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth > TEXT_LIMITS.jsonDepth) return { path, message: `nests deeper than ${TEXT_LIMITS.jsonDepth} levels` };
    // Children are pushed last-first so that problems are found in document order.
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i] as unknown, path: [...path, i], depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(v);
    for (const k of keys) {
      // Reported on the object, the key shown escaped: the message itself must be storable text.
      if (longerThan(k, TEXT_LIMITS.key)) return { path, message: `key ${quote(k)} is longer than ${TEXT_LIMITS.key} characters` };
      const problem = textProblem(k);
      if (problem !== undefined) return { path, message: `key ${quote(k)} ${problem}` };
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i]!;
      stack.push({ value: (v as Record<string, unknown>)[k], path: [...path, k], depth: depth + 1 });
    }
  }
  return undefined;
}

/** Free-form JSON (attribute values, data, tags, meta, filter values): any shape, storable text. */
export const jsonValue = z.unknown().superRefine((v, ctx) => {
  const problem = jsonProblem(v);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem.message, path: problem.path, input: v });
});

/**
 * `schema` for a JSON value of a known shape, run only once `jsonProblem` has passed: a recursive
 * schema (`z.lazy`) recurses once per level, so a body nested 20,000 deep would exhaust the stack
 * inside zod; the iterative check stops it at TEXT_LIMITS.jsonDepth first.
 */
export function boundedJson<S extends z.ZodType>(schema: S) {
  return jsonValue.pipe(schema);
}

/** A free-form JSON object keyed by storable keys (attributes, data, tags, meta, metadata). */
export const jsonObject = textRecord(jsonValue);

/**
 * An object that keeps fields it does not name, as free-form JSON (checked like `jsonValue`, and
 * their keys like record keys): the replacement for `.passthrough()` on request bodies.
 */
export function openObject<S extends z.ZodRawShape>(shape: S) {
  return z.object(shape).catchall(jsonValue).superRefine((v, ctx) => {
    for (const k of Object.keys(v)) {
      const problem = longerThan(k, TEXT_LIMITS.key) ? `is longer than ${TEXT_LIMITS.key} characters` : textProblem(k);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `key ${quote(k)} ${problem}`, input: k });
    }
  });
}
