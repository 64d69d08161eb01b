// The testset kind of the versioned-artifact model, pure parts (E§2.2, design §2.6): testcase ids
// (content hashes), the dedup id injected into every row, row normalisation with its limits, the
// commit delta on a base revision's rows, and the schema of a revision's `data`.
//
// Testcase ids must equal the reference's so that ids computed by clients and other servers name
// the same rows: BLAKE2b with a 16-byte digest (a real digest_size=16, not a cut BLAKE2b-512) over
// `str(testset_id)` + Python's `json.dumps(data, sort_keys=True, separators=(",", ":"))`, with the
// RFC 4122 variant and version 5 bits forced. `pythonJson` reproduces that serialisation; Node's
// crypto refuses BLAKE2b with a 16-byte output, hence @noble/hashes.
import { blake2b } from '@noble/hashes/blake2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { parseUuid } from '@llm/contracts';
import { z } from 'zod';

// --- Python-compatible JSON ----------------------------------------------------------------------

export interface PythonJsonOptions {
  /** `sort_keys=True` (keys ordered by code point, as Python compares strings). */
  sortKeys?: boolean;
  /** `separators=(",", ":")`; otherwise Python's default `", "` and `": "`. */
  compact?: boolean;
}

/**
 * `json.dumps(value)` as Python writes it with `ensure_ascii=True`: every character outside
 * printable ASCII (including DEL) as `\uXXXX` in lowercase hex, astral ones as surrogate pairs.
 * Numbers: JSON parsing leaves no int/float distinction, so an integral value below 1e16 is written
 * as a Python int (`5`, what clients send for whole numbers) and anything else as Python's float
 * `repr` (`0.1`, `1e-05`, `1e+16`). `undefined` is skipped in objects and `null` in arrays, as
 * `JSON.stringify` does.
 */
export function pythonJson(value: unknown, options: PythonJsonOptions = {}): string {
  const item = options.compact ? ',' : ', ';
  const pair = options.compact ? ':' : ': ';
  const write = (v: unknown): string => {
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'string') return pythonString(v);
    if (typeof v === 'number') return pythonNumber(v);
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (Array.isArray(v)) return `[${v.map(write).join(item)}]`;
    if (typeof v === 'object') {
      const entries = Object.entries(v).filter(([, x]) => x !== undefined);
      if (options.sortKeys) entries.sort(([a], [b]) => compareCodePoints(a, b));
      return `{${entries.map(([k, x]) => `${pythonString(k)}${pair}${write(x)}`).join(item)}}`;
    }
    throw new TypeError(`pythonJson: ${typeof v} is not JSON`);
  };
  return write(value);
}

const SHORT_ESCAPES: Record<number, string> = { 0x22: '\\"', 0x5c: '\\\\', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t' };

// Everything but printable ASCII, the quote and the backslash.
const NEEDS_ESCAPE = /[^\x20\x21\x23-\x5b\x5d-\x7e]/g;

function pythonString(s: string): string {
  // Per UTF-16 code unit: an astral character is already its surrogate pair, as Python escapes it.
  const escaped = s.replace(NEEDS_ESCAPE, (ch) => {
    const c = ch.charCodeAt(0);
    return SHORT_ESCAPES[c] ?? `\\u${c.toString(16).padStart(4, '0')}`;
  });
  return `"${escaped}"`;
}

function pythonNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n === 0 ? 0 : n);
  // Python's float repr: the shortest round-trip digits (JavaScript's too), fixed notation for
  // decimal exponents -4..15, otherwise `d.ddde±XX` with at least two exponent digits.
  const [mantissa = '', exponent = '0'] = Math.abs(n).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exp = Number(exponent);
  const sign = n < 0 ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const rest = digits.length > 1 ? `.${digits.slice(1)}` : '';
    return `${sign}${digits[0] ?? ''}${rest}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const fraction = digits.slice(exp + 1);
  return `${sign}${whole}.${fraction === '' ? '0' : fraction}`;
}

/** Python's string order (code points); `<` on JavaScript strings compares UTF-16 units instead. */
function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

// --- Ids -----------------------------------------------------------------------------------------

const utf8 = new TextEncoder();

/** BLAKE2b-128 of `prefix` + the compact sorted-key JSON of `data`, as a version-5 RFC 4122 UUID. */
function contentUuid(prefix: string, data: unknown): string {
  const h = blake2b(utf8.encode(prefix + pythonJson(data, { sortKeys: true, compact: true })), { dkLen: 16 });
  // What Python's `uuid.UUID(bytes=h, version=5)` does: variant 10xx, version 0101.
  h[8] = ((h[8] ?? 0) & 0x3f) | 0x80;
  h[6] = ((h[6] ?? 0) & 0x0f) | 0x50;
  const hex = bytesToHex(h);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The id of a testcase of `testsetId` holding `data` (E§2.2): the same data in the same testset is
 * the same testcase, in another testset another one. `testsetId` may be spelled in any case (it is
 * hashed as Python's `str(uuid)`, lowercase with dashes); a non-UUID is a caller's bug and throws.
 */
export function testcaseId(testsetId: string, data: unknown): string {
  const canonical = parseUuid(testsetId);
  if (canonical === undefined) throw new TypeError(`testcaseId: testset id ${JSON.stringify(testsetId)} is not a UUID`);
  return contentUuid(canonical, data);
}

/**
 * The "row hash" of E§2.2's dedup id, for one row's `data` after `testcase_id` and
 * `testcase_dedup_id` are taken out of it: the row's own `testcase_id` when that is a UUID
 * (canonical spelling), else the content hash of the remaining data. Our reading: the reference
 * hashes the row before any testset is known, so the hash has no testset in front (empty prefix).
 * Two equal rows thus share a row hash and are told apart by their index only.
 */
export function rowHash(data: Record<string, unknown>, explicitId?: unknown): string {
  const id = typeof explicitId === 'string' ? parseUuid(explicitId) : undefined;
  return id ?? contentUuid('', data);
}

/** The 12-hex dedup id of the row at `index` (0-based): BLAKE2b-48 of `"<row hash>:<index>"`. */
export function dedupId(rowHashValue: string, index: number): string {
  return bytesToHex(blake2b(utf8.encode(`${rowHashValue}:${index}`), { dkLen: 6 }));
}

// --- Row normalisation (simple create/edit) ------------------------------------------------------

export const TESTSET_MAX_ROWS = 10_000;
export const TESTSET_MAX_BYTES = 10 * 1024 * 1024;

export type TestsetLimitCode = 'testset_too_many_testcases' | 'testset_too_large';

export type NormalisedRows<R> =
  | { ok: true; rows: R[]; count: number; bytes: number }
  /** `message` is the reference's text for the file routes' 400; simple routes answer `{count:0}`. */
  | { ok: false; code: TestsetLimitCode; limit: number; message: string };

const LIMIT_MESSAGES: Record<TestsetLimitCode, string> = {
  testset_too_many_testcases: `Testset exceeds the maximum count of ${TESTSET_MAX_ROWS} testcases per testset.`,
  testset_too_large: `Testset exceeds the maximum size of ${TESTSET_MAX_BYTES / (1024 * 1024)} MB per testset.`,
};

/** Python truthiness of a JSON value: the reference keeps an explicit dedup id only when truthy. */
function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (v !== null && typeof v === 'object') return Object.keys(v).length > 0;
  return Boolean(v);
}

/**
 * The rows of a simple create/edit as they are committed (E§2.2): `testcase_id` leaves each row's
 * data and `data.testcase_dedup_id` is set to the row's own (truthy) value, else to
 * `dedupId(rowHash, index)`, so duplicate rows stay distinct testcases. Every row is kept, in order;
 * other fields of a row pass through, and the input is not modified.
 *
 * Limits are counted as the reference counts them: over the rows keyed by their explicit UUID
 * `testcase_id` or their content (rows with the same key count once, the last one's size), the
 * size being the UTF-8 length of the JSON array of their data in Python's default `json.dumps`
 * form. Above 10,000 rows or 10 MiB the result is a failure, not an exception.
 */
export function normaliseRows<R extends { data: Record<string, unknown> }>(rows: readonly R[]): NormalisedRows<R> {
  const out: R[] = [];
  const sizeByKey = new Map<string, number>();
  rows.forEach((row, index) => {
    const { testcase_id: explicitId, testcase_dedup_id: explicitDedup, ...rest } = row.data;
    const id = typeof explicitId === 'string' ? parseUuid(explicitId) : undefined;
    // One content hash per row at most: the row hash when there is no UUID, and the row's key
    // (equal final data <=> equal rest and equal dedup id, `testcase_dedup_id` being out of rest).
    const content = id === undefined ? contentUuid('', rest) : undefined;
    const dedup = truthy(explicitDedup) ? explicitDedup : dedupId(id ?? content ?? '', index);
    const data: Record<string, unknown> = { ...rest, testcase_dedup_id: dedup };
    out.push({ ...row, data });
    const key = id ?? `${content ?? ''}:${pythonJson(dedup)}`;
    sizeByKey.set(key, pythonJson(data).length); // ASCII only: characters are bytes
  });
  let count = 0;
  let bytes = 2; // "[" and "]"
  for (const size of sizeByKey.values()) {
    count += 1;
    bytes += size + (count > 1 ? 1 : 0); // the "," between rows
    if (count > TESTSET_MAX_ROWS) return limitFailure('testset_too_many_testcases', TESTSET_MAX_ROWS);
    if (bytes > TESTSET_MAX_BYTES) return limitFailure('testset_too_large', TESTSET_MAX_BYTES);
  }
  return { ok: true, rows: out, count, bytes };
}

const limitFailure = <R>(code: TestsetLimitCode, limit: number): NormalisedRows<R> => ({ ok: false, code, limit, message: LIMIT_MESSAGES[code] });

// --- Delta ---------------------------------------------------------------------------------------

/** A testcase as a revision's rows carry it; `id` is its content hash (absent: not computed yet). */
export interface TestsetDeltaRow {
  id?: string | null;
  data: Record<string, unknown>;
  flags?: Record<string, unknown> | null;
  tags?: Record<string, unknown> | null;
  meta?: Record<string, unknown> | null;
}

export interface TestsetDelta {
  rows?: {
    add?: readonly TestsetDeltaRow[] | null;
    remove?: readonly string[] | null;
    replace?: readonly (TestsetDeltaRow & { id: string })[] | null;
  } | null;
  columns?: {
    add?: readonly string[] | null;
    remove?: readonly string[] | null;
    /** `[old, new]` renames, applied in order. */
    replace?: readonly (readonly [string, string])[] | null;
  } | null;
}

/**
 * The rows of the revision a delta commits (E§2.2), from the base revision's rows, in this order:
 * rows named by `replace` are swapped for the replacement in place, rows named by `remove` go
 * (every occurrence: a revision may repeat an id), `add` rows are appended; then the column ops hold
 * for every resulting row: renames (keeping the key's position), removals, and added columns set to
 * `""` where a row lacks them. Column ops come last so that rows added or replaced by the same
 * delta end up with the same columns as the others. Unknown ids are ignored; ids match in any case.
 *
 * A row whose data the delta wrote (replaced, added, or changed by a column op) comes back without
 * `id`: its content hash must be computed again. Untouched rows keep theirs.
 */
export function applyTestsetDelta(rows: readonly TestsetDeltaRow[], delta: TestsetDelta): TestsetDeltaRow[] {
  const replacements = new Map((delta.rows?.replace ?? []).map((r) => [r.id.toLowerCase(), r]));
  const removed = new Set((delta.rows?.remove ?? []).map((id) => id.toLowerCase()));
  const kept = rows.flatMap((row): TestsetDeltaRow[] => {
    const key = row.id?.toLowerCase();
    if (key !== undefined && removed.has(key)) return [];
    const replacement = key === undefined ? undefined : replacements.get(key);
    return [replacement === undefined ? row : withoutId(replacement)];
  });
  const all = [...kept, ...(delta.rows?.add ?? []).map(withoutId)];
  const columns = delta.columns;
  if (!columns) return all;
  return all.map((row) => {
    const data = applyColumnOps(row.data, columns);
    return data === row.data ? row : withoutId({ ...row, data });
  });
}

function withoutId(row: TestsetDeltaRow): TestsetDeltaRow {
  const copy: TestsetDeltaRow = { ...row };
  delete copy.id;
  return copy;
}

/** The row's data after the column ops; the same object when none applied. */
function applyColumnOps(data: Record<string, unknown>, columns: NonNullable<TestsetDelta['columns']>): Record<string, unknown> {
  let out = data;
  for (const [from, to] of columns.replace ?? []) {
    if (!Object.hasOwn(out, from) || from === to) continue;
    const renamed: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(out)) {
      if (k === from) renamed[to] = v;
      else if (k !== to) renamed[k] = v;
    }
    out = renamed;
  }
  for (const column of columns.remove ?? []) {
    if (!Object.hasOwn(out, column)) continue;
    out = { ...out };
    delete out[column];
  }
  for (const column of columns.add ?? []) {
    if (!Object.hasOwn(out, column)) out = { ...out, [column]: '' };
  }
  return out;
}

// --- Revision data -------------------------------------------------------------------------------

const jsonObject = z.record(z.string(), z.unknown());

/** A testcase inside revision data: extra fields (testset_id, created_at, … of a read) are dropped. */
export const testcaseInputSchema = z.object({
  id: z.uuid({ error: 'testcase id must be a UUID' }).nullish(),
  data: jsonObject,
  flags: jsonObject.nullish(),
  tags: jsonObject.nullish(),
  meta: jsonObject.nullish(),
});

/** A testset revision's `data` (E§1.2): strict, an unknown key is a 422 naming it (E§1.1). */
export const testsetRevisionDataSchema = z.strictObject({
  testcase_ids: z.array(z.uuid({ error: 'testcase_ids must hold UUIDs' })).max(TESTSET_MAX_ROWS).nullish(),
  testcases: z.array(testcaseInputSchema).max(TESTSET_MAX_ROWS).nullish(),
});
export type TestsetRevisionData = z.infer<typeof testsetRevisionDataSchema>;
