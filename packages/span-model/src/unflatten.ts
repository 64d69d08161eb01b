import { getOwn, setOwn } from './json-object.ts';
import type { JsonObject, JsonValue } from './span.ts';

type Container = JsonObject | JsonValue[];

// Numeric segments create arrays, but a key like `x.99999999` must not allocate a huge array:
// indexes above this are plain object keys.
const MAX_INDEX_DIGITS = 4;
// A key of thousands of dot-separated segments must not become thousands of nested objects (every
// reader of the span recurses through them): past this many segments the rest stays one dotted key.
export const MAX_PATH_SEGMENTS = 32;

function pathOf(key: string): string[] {
  const segments = key.split('.');
  if (segments.length <= MAX_PATH_SEGMENTS) return segments;
  return [...segments.slice(0, MAX_PATH_SEGMENTS - 1), segments.slice(MAX_PATH_SEGMENTS - 1).join('.')];
}

/**
 * Reference §1.2 step 1: dotted top-level keys become nested paths, numeric segments array
 * indexes; flat and nested forms mix (`ag.data.inputs.x` merges into an `ag` object given in
 * the same map), keys apply in map order.
 *
 * Only top-level keys are split: keys inside nested values are user data (an input named
 * `file.txt` stays one key).
 *
 * Lossless where the reference drops data:
 * - two objects at one path are merged key by key (later keys win on scalar conflicts);
 * - a scalar and an object at one path: the scalar keeps the path, and the object's entries are
 *   kept beside it under dotted keys, whatever the order. `{"ai.prompt": "…", "ai.prompt.messages": "…"}`
 *   (Vercel AI SDK) → `{ai: {prompt: "…", "prompt.messages": "…"}}`;
 * - a non-numeric key under an array turns that array into an object keyed "0", "1", ….
 *
 * Never mutates the input: containers taken from it are copied before they are written into.
 */
export function unflatten(attributes: JsonObject): JsonObject {
  const out: JsonObject = {};
  const owned = new Set<object>([out]);
  for (const key in attributes) {
    const value = attributes[key];
    if (value === undefined) continue;
    if (key.indexOf('.') === -1) putLeaf(out, key, value, owned);
    else place(out, pathOf(key), 0, value, owned);
  }
  return out;
}

/**
 * Writes `value` at `segments` below `root`, with the same lossless collision rules as
 * `unflatten`. `owned` holds the containers created by this writer (others are copied first).
 */
export function setPathLossless(root: JsonObject, segments: readonly string[], value: JsonValue, owned: Set<object>): void {
  owned.add(root);
  if (segments.length === 0) return;
  place(root, segments, 0, value, owned);
}

// Returns the node that now stands where `node` stood (an array may have become an object).
function place(node: Container, segments: readonly string[], i: number, value: JsonValue, owned: Set<object>): Container {
  const seg = segments[i] as string;
  if (Array.isArray(node) && !isIndex(seg)) node = arrayToObject(node, owned);
  if (i === segments.length - 1) return putLeaf(node, seg, value, owned);
  const existing = read(node, seg);
  if (existing === undefined) {
    const created: Container = isIndex(segments[i + 1] as string) ? [] : {};
    owned.add(created);
    write(node, seg, place(created, segments, i + 1, value, owned));
    return node;
  }
  if (isContainer(existing)) {
    write(node, seg, place(own(existing, owned), segments, i + 1, value, owned));
    return node;
  }
  // A scalar holds this prefix: it stays, the deeper value is kept beside it under the dotted rest.
  if (Array.isArray(node)) node = arrayToObject(node, owned);
  return putLeaf(node, segments.slice(i).join('.'), value, owned);
}

function putLeaf(node: Container, key: string, value: JsonValue, owned: Set<object>): Container {
  if (Array.isArray(node) && !isIndex(key)) node = arrayToObject(node, owned);
  const existing = read(node, key);
  if (existing === undefined) {
    write(node, key, value);
    return node;
  }
  const valueIsContainer = isContainer(value);
  const existingIsContainer = isContainer(existing);
  if (valueIsContainer && existingIsContainer) {
    let target = own(existing, owned);
    for (const k of keysOf(value)) target = putLeaf(target, k, entry(value, k), owned);
    write(node, key, target);
    return node;
  }
  if (!valueIsContainer && !existingIsContainer) {
    write(node, key, value);
    return node;
  }
  // Scalar against container: the scalar keeps the key, the container's entries go beside it.
  if (Array.isArray(node)) node = arrayToObject(node, owned);
  const container = (valueIsContainer ? value : existing) as Container;
  write(node, key, valueIsContainer ? existing : value);
  for (const k of keysOf(container)) node = putLeaf(node, `${key}.${k}`, entry(container, k), owned);
  return node;
}

function isContainer(v: JsonValue): v is Container {
  return typeof v === 'object' && v !== null;
}

function isIndex(seg: string): boolean {
  const n = seg.length;
  if (n === 0 || n > MAX_INDEX_DIGITS || (n > 1 && seg.charCodeAt(0) === 48)) return false;
  for (let i = 0; i < n; i++) {
    const c = seg.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function read(node: Container, key: string): JsonValue | undefined {
  if (Array.isArray(node)) return isIndex(key) ? node[Number(key)] : undefined;
  return getOwn(node, key);
}

function write(node: Container, key: string, value: JsonValue): void {
  if (Array.isArray(node)) {
    const index = Number(key);
    // Holes become null: JSON has no holes, and a later key may still fill them.
    while (node.length < index) node.push(null);
    node[index] = value;
  } else {
    setOwn(node, key, value);
  }
}

function own(c: Container, owned: Set<object>): Container {
  if (owned.has(c)) return c;
  const copy: Container = Array.isArray(c) ? c.slice() : { ...c };
  owned.add(copy);
  return copy;
}

function arrayToObject(a: JsonValue[], owned: Set<object>): JsonObject {
  const o: JsonObject = {};
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    if (v !== undefined) o[String(i)] = v;
  }
  owned.add(o);
  return o;
}

function keysOf(c: Container): string[] {
  return Array.isArray(c) ? c.map((_, i) => String(i)) : Object.keys(c);
}

function entry(c: Container, key: string): JsonValue {
  return (Array.isArray(c) ? c[Number(key)] : (c as JsonObject)[key]) as JsonValue;
}
