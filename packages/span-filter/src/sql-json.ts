// SQL over JSON text columns (attributes, links, references, events, hashes). Keys travel as String
// parameters, one per path segment: ClickHouse's JSON* functions take the path as variadic arguments,
// and a parameter cannot expand into a variable number of them.
import { MAX_LIST_VALUES, MAX_VALUE_DEPTH } from './limits.ts';
import type { ParamSink } from './sql-params.ts';
import { done, fail, within, type Step } from './step.ts';

/** Placeholders for the segments of a path. */
export function pathParams(segments: readonly string[], sink: ParamSink): string[] {
  return segments.map((s) => sink.ref('String', s));
}

/** The argument list of a JSON* function: the document, then the path placeholders. */
export function jsonArgs(doc: string, path: readonly string[]): string {
  return path.length === 0 ? doc : `${doc}, ${path.join(', ')}`;
}

export function jsonHas(doc: string, path: readonly string[]): string {
  return `JSONHas(${jsonArgs(doc, path)})`;
}

/** The leaf as text the way Postgres `->>` gives it: strings unquoted, anything else as JSON. */
export function leafText(doc: string, path: readonly string[]): string {
  const a = jsonArgs(doc, path);
  return `if(JSONType(${a}) = 'String', JSONExtractString(${a}), JSONExtractRaw(${a}))`;
}

/** Every element of the JSON array at `path` (none when it is not an array or the text is empty). */
export function arrayElements(doc: string, path: readonly string[]): string {
  return `JSONExtractArrayRaw(${jsonArgs(doc, path)})`;
}

/**
 * True when the JSON at `path` contains `value` in the sense of Postgres `@>` (what the reference's
 * attribute `is` does): scalars are equal (numbers by value, so 1 = 1.0), objects match partially,
 * arrays match as subsets (each element of `value` is contained in some element), `null` matches an
 * explicit null only. Failures point into the value (`[2, 'a']`).
 */
export function containsJson(doc: string, path: readonly string[], value: unknown, sink: ParamSink, depth = 0): Step<string> {
  if (depth > MAX_VALUE_DEPTH) return fail(`value nests deeper than ${MAX_VALUE_DEPTH} levels`);
  const a = jsonArgs(doc, path);
  if (value === null) {
    // JSONType of a missing key is 'Null' too: presence is tested apart.
    const isNull = `JSONType(${a}) = 'Null'`;
    return done(path.length === 0 ? isNull : `${jsonHas(doc, path)} AND ${isNull}`);
  }
  switch (typeof value) {
    case 'string':
      return done(`JSONType(${a}) = 'String' AND JSONExtractString(${a}) = ${sink.ref('String', value)}`);
    case 'number':
      if (!Number.isFinite(value)) return fail('numbers must be finite');
      return done(`JSONType(${a}) IN ('Int64', 'UInt64', 'Double') AND JSONExtractFloat(${a}) = ${sink.ref('Float64', value)}`);
    case 'boolean':
      return done(`JSONType(${a}) = 'Bool' AND JSONExtractBool(${a}) = ${sink.ref('UInt8', value ? 1 : 0)}`);
    case 'object':
      return Array.isArray(value) ? containsArray(doc, path, value, sink, depth) : containsObject(doc, path, value, sink, depth);
    default:
      return fail(`unsupported value of type ${typeof value}`);
  }
}

function containsObject(doc: string, path: readonly string[], value: object, sink: ParamSink, depth: number): Step<string> {
  const parts = [`JSONType(${jsonArgs(doc, path)}) = 'Object'`];
  for (const [k, v] of Object.entries(value)) {
    const r = containsJson(doc, [...path, sink.ref('String', k)], v, sink, depth + 1);
    if (!r.ok) return within([k], r);
    parts.push(r.value);
  }
  return done(parts.join(' AND '));
}

function containsArray(doc: string, path: readonly string[], value: unknown[], sink: ParamSink, depth: number): Step<string> {
  if (value.length > MAX_LIST_VALUES) return fail(`lists are limited to ${MAX_LIST_VALUES} items`);
  const parts = [`JSONType(${jsonArgs(doc, path)}) = 'Array'`];
  for (let i = 0; i < value.length; i++) {
    const r = someElement(doc, path, value[i], sink, depth + 1);
    if (!r.ok) return within([i], r);
    parts.push(r.value);
  }
  return done(parts.join(' AND '));
}

/** True when some element of the array at `path` contains `value`. */
export function someElement(doc: string, path: readonly string[], value: unknown, sink: ParamSink, depth = 0): Step<string> {
  const x = sink.lambdaVar();
  const r = containsJson(x, [], value, sink, depth);
  if (!r.ok) return r;
  return done(`arrayExists(${x} -> ${r.value}, ${arrayElements(doc, path)})`);
}

/** Splits a dotted key (`ag.data.inputs.country`) into its segments. */
export function splitKey(key: string, maxSegments: number): Step<string[]> {
  const segments = key.split('.');
  if (segments.length > maxSegments) return fail(`has more than ${maxSegments} segments`, ['key']);
  if (segments.some((s) => s === '')) return fail(`'${clip(key)}' has an empty segment`, ['key']);
  return done(segments);
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
