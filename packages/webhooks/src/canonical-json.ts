// The webhook body's exact bytes (reference accounts §9.6): Python's
// `json.dumps(value, sort_keys=True, separators=(",", ":"))` with its default `ensure_ascii=True`.
// Receivers verify the signature over these bytes, and receivers written against the reference
// may re-serialize the parsed body the Python way, so we reproduce it byte for byte:
// - keys sorted by code point (Python compares `str` by code point; JS's default sort compares
//   UTF-16 units, which orders astral characters before U+E000..U+FFFF: different);
// - every character outside printable ASCII (0x20..0x7e) escaped: `\" \\ \n \r \t \b \f`, the rest
//   as `\uXXXX` with lower-case hex, astral characters as their UTF-16 surrogate pair (that is
//   what Python writes), DEL (0x7f) included; `/` is not escaped (so `</script>` stays as it is);
// - numbers: integers as JS prints them (the digits of Python's int for |n| < 1e21); other
//   numbers as Python's float repr (same shortest digits as JS, but exponent form below 1e-4 with
//   a two-digit exponent: `1e-05`, where JS writes `0.00001`).
//   Known differences, all from JSON.parse having forgotten how a number was written: a float
//   with an integral value (`1.0`) is a plain 1 in JS, so we write `1` where Python writes `1.0`
//   (likewise `1e+16` vs `10000000000000000`, and `-0.0` vs `0`); integers beyond 2^53 were
//   already rounded by JSON.parse. The signature always covers the bytes we send, so this only
//   matters to a receiver that re-serializes instead of verifying the raw body.
// Iterative (an explicit stack), so a deeply nested attribute value cannot overflow the call stack.
// `canonicalJsonLength` tells the length of those bytes without building them, and stops counting
// once past a limit: the payload budget (payload-template.ts) measures with it.

type Frame =
  | { kind: 'object'; keys: string[]; obj: Record<string, unknown>; i: number }
  | { kind: 'array'; arr: readonly unknown[]; i: number };

/** Serializes a JSON value the way Python's `json.dumps(v, sort_keys=True, separators=(",",":"))` does. */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const seen = new Set<object>();

  // Writes a scalar, or opens a container (pushing its frame).
  const emit = (raw: unknown): void => {
    const v = toJsonable(raw);
    if (v === null) out.push('null');
    else if (typeof v === 'string') out.push(quote(v));
    else if (typeof v === 'boolean') out.push(v ? 'true' : 'false');
    else if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new TypeError('canonicalJson: non-finite numbers are not JSON');
      out.push(pyNumber(v));
    } else if (typeof v === 'bigint') out.push(v.toString());
    else if (Array.isArray(v)) {
      if (seen.has(v)) throw new TypeError('canonicalJson: circular structure');
      seen.add(v);
      out.push('[');
      stack.push({ kind: 'array', arr: v, i: 0 });
    } else if (typeof v === 'object') {
      if (seen.has(v)) throw new TypeError('canonicalJson: circular structure');
      seen.add(v);
      const obj = v as Record<string, unknown>;
      // Like JSON.stringify, members whose value is undefined (or a function) are left out.
      const keys = Object.keys(obj).filter((k) => obj[k] !== undefined && typeof obj[k] !== 'function').sort(compareCodePoints);
      out.push('{');
      stack.push({ kind: 'object', keys, obj, i: 0 });
    } else throw new TypeError(`canonicalJson: a ${typeof v} is not JSON`);
  };

  emit(value);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.kind === 'array') {
      if (top.i >= top.arr.length) {
        out.push(']');
        seen.delete(top.arr);
        stack.pop();
        continue;
      }
      if (top.i > 0) out.push(',');
      const item = top.arr[top.i++];
      // Like JSON.stringify (and unlike an object member), an undefined array item is null.
      emit(item === undefined || typeof item === 'function' ? null : item);
    } else {
      if (top.i >= top.keys.length) {
        out.push('}');
        seen.delete(top.obj);
        stack.pop();
        continue;
      }
      if (top.i > 0) out.push(',');
      const key = top.keys[top.i++]!;
      out.push(quote(key), ':');
      emit(top.obj[key]);
    }
  }
  return out.join('');
}

/**
 * `canonicalJson(value).length` (the bytes: the output is ASCII), counted without building it, or
 * some number above `limit` as soon as the count passes it: the work done is bounded by `limit`
 * (every value counted adds at least one byte), whatever the size of `value`. `memo` keeps the
 * exact lengths of the containers measured to the end, so a subtree met again costs nothing.
 */
export function canonicalJsonLength(value: unknown, limit: number, memo: WeakMap<object, number> = new WeakMap()): number {
  let total = 0;
  // A container being counted: its members left (object keys or array items) and where it started.
  const stack: Array<{ node: object; start: number; items: unknown[]; keys?: string[]; obj?: Record<string, unknown>; i: number }> = [];
  const count = (raw: unknown): void => {
    const v = toJsonable(raw);
    if (v === null || v === undefined || typeof v === 'function') total += 4;
    else if (typeof v === 'string') total += quotedLength(v, limit - total);
    else if (typeof v === 'boolean') total += v ? 4 : 5;
    else if (typeof v === 'number') total += Number.isFinite(v) ? pyNumber(v).length : 4;
    else if (typeof v === 'bigint') total += v.toString().length;
    else if (typeof v === 'object') {
      const known = memo.get(v);
      if (known !== undefined) {
        total += known;
        return;
      }
      const start = total;
      total += 1;
      if (Array.isArray(v)) stack.push({ node: v, start, items: v, i: 0 });
      else {
        const obj = v as Record<string, unknown>;
        const keys = Object.keys(obj).filter((k) => obj[k] !== undefined && typeof obj[k] !== 'function');
        stack.push({ node: v, start, items: [], keys, obj, i: 0 });
      }
    } else total += 4;
  };
  count(value);
  while (stack.length > 0 && total <= limit) {
    const top = stack[stack.length - 1]!;
    const n = top.keys ? top.keys.length : top.items.length;
    if (top.i >= n) {
      total += 1;
      memo.set(top.node, total - top.start);
      stack.pop();
      continue;
    }
    if (top.i > 0) total += 1;
    if (top.keys) {
      const key = top.keys[top.i++]!;
      total += quotedLength(key, limit - total) + 1;
      if (total <= limit) count(top.obj![key]);
    } else {
      const item = top.items[top.i++];
      count(item === undefined || typeof item === 'function' ? null : item);
    }
  }
  return total;
}

/** `quote(s).length`, or a number above `room` once it is clear the string does not fit (without scanning it). */
function quotedLength(s: string, room: number): number {
  if (s.length + 2 > room) return s.length + 2;
  let n = 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c ? 1 : SHORT[c] !== undefined ? 2 : 6;
  }
  return n;
}

/** Python's spelling of a JSON number (see the header for what cannot be recovered). */
function pyNumber(v: number): string {
  if (Number.isInteger(v) || Math.abs(v) >= 1e-4) return JSON.stringify(v);
  // Python's repr switches to exponent form below 1e-4 and pads the exponent to two digits.
  const [mantissa, exponent] = v.toExponential().split('e') as [string, string];
  const sign = exponent.startsWith('-') ? '-' : '+';
  return `${mantissa}e${sign}${exponent.replace(/^[+-]/, '').padStart(2, '0')}`;
}

/** `toJSON` (a Date) the way JSON.stringify applies it. */
function toJsonable(v: unknown): unknown {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    return (v as { toJSON: () => unknown }).toJSON();
  }
  return v;
}

/** Python's `str` ordering: by code point (a lone surrogate counts as its own code point). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let k = 0;
  while (k < n && a.charCodeAt(k) === b.charCodeAt(k)) k++;
  if (k === n) return a.length - b.length;
  // If the first difference is in the low half of a pair, the pairs started one unit earlier.
  const prev = k > 0 ? a.charCodeAt(k - 1) : 0;
  if (prev >= 0xd800 && prev <= 0xdbff) k--;
  return a.codePointAt(k)! - b.codePointAt(k)!;
}

const SHORT: Record<number, string> = { 0x22: '\\"', 0x5c: '\\\\', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x08: '\\b', 0x0c: '\\f' };

/** Python's `py_encode_basestring_ascii`. */
function quote(s: string): string {
  let r = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    r += s.slice(start, i) + (SHORT[c] ?? `\\u${c.toString(16).padStart(4, '0')}`);
    start = i + 1;
  }
  return `${r}${s.slice(start)}"`;
}
