// JSON trees that clients shape (revision data, deltas), read and written by own keys only: a key
// is data, never a way into a prototype. `__proto__` in a client's JSON is an ordinary key here
// (as JSON.parse makes it), so a delta can neither reach Object.prototype nor change an object's.
export type Tree = Record<string, unknown>;

export const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether the tree holds the key itself (inherited properties are not data). */
export const hasOwnKey = (t: Tree, key: string): boolean => Object.hasOwn(t, key);

/** The tree's own value at the key, else undefined. */
export const ownValue = (t: Tree, key: string): unknown => (Object.hasOwn(t, key) ? t[key] : undefined);

/** Sets the key as an own data property (an assignment to `__proto__` would change the prototype instead). */
export function setOwn(t: Tree, key: string, value: unknown): void {
  Object.defineProperty(t, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `over` merged into `base`: objects merge key by key, anything else replaces; neither input changes. */
export function deepMerge(base: unknown, over: Tree): Tree {
  const out: Tree = {};
  if (isTree(base)) for (const [k, v] of Object.entries(base)) setOwn(out, k, v);
  for (const [k, v] of Object.entries(over)) {
    const current = ownValue(out, k);
    setOwn(out, k, isTree(v) && isTree(current) ? deepMerge(current, v) : v);
  }
  return out;
}
