// Windowing of span and trace queries (reference §5.3): time bounds, order, page size, sampling and
// the cursor, compiled to SQL fragments with their parameters.
import { texts } from '@llm/contracts';
import { z } from 'zod';

import { DATETIME64, parseTimeValue, toDateTime64Text } from './ch-time.ts';
import type { FilterError } from './compile-filter.ts';
import { decodeCursor, isTraceKey, splitSpanKey } from './cursor.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, RATE_BUCKETS } from './limits.ts';
import { assertParamName, type SqlParams } from './sql-params.ts';
import { formatPath, type Path } from './step.ts';

export const ORDERS = ['ascending', 'descending'] as const;
export type Order = (typeof ORDERS)[number];
export type Focus = 'span' | 'trace';

/** ISO-8601 or a 10/13/16/19-digit integer (s/ms/µs/ns) → epoch µs. */
const TimestampSchema = z.union([texts.shortText, z.number()]).transform((v, ctx) => {
  const r = parseTimeValue(v);
  if (r.ok) return r.value;
  ctx.issues.push({ code: 'custom', message: r.error, input: v });
  return z.NEVER;
});

export const WindowingSchema = z.strictObject({
  /** Exclusive upper bound on start_time. */
  newest: TimestampSchema.nullish(),
  /** Inclusive lower bound on start_time. */
  oldest: TimestampSchema.nullish(),
  /** The cursor of the previous page (see encodeCursor). */
  next: texts.shortText.nullish(),
  limit: z
    .number()
    .int({ error: 'limit must be an integer' })
    .min(1, { error: 'limit must be at least 1' })
    .max(MAX_LIMIT, { error: `limit must be at most ${MAX_LIMIT}` })
    .nullish(),
  order: z.enum(ORDERS, { error: `order must be one of: ${ORDERS.join(', ')}` }).nullish(),
  /** Bucket width for analytics; validated and passed through. */
  interval: z.number().positive({ error: 'interval must be positive' }).nullish(),
  rate: z.number().gt(0, { error: 'rate must be in (0, 1]' }).lte(1, { error: 'rate must be in (0, 1]' }).nullish(),
});

/** POST /spans/sessions/query and /spans/users/query: a window over distinct session or user ids; `realtime` pages by last activity. */
export const ActivityQuerySchema = z.strictObject({ realtime: z.boolean().nullish(), windowing: WindowingSchema.nullish() });

export type WindowingInput = z.input<typeof WindowingSchema>;
export type Windowing = z.output<typeof WindowingSchema>;

export interface CompiledWindowing {
  ok: true;
  /** Predicate on span rows: time bounds, sampling, and (span focus) the cursor. `1` when none. */
  where: string;
  /** Trace focus: predicate on the grouped traces (the cursor); `1` otherwise. */
  having: string;
  /** Span focus: over span rows; trace focus: over `GROUP BY trace_id`, using `traceKey`. */
  orderBy: string;
  limit: number;
  order: Order;
  params: SqlParams;
  /** Trace focus sort key (latest start_time among a trace's matching spans in the window). */
  traceKey: string;
  interval?: number;
  rate?: number;
  /** The decoded `next` cursor (already part of `where`/`having`), for readers that page by scanning. */
  cursor?: { t: number; trace_id: string; span_id: string };
}

export type WindowingResult = CompiledWindowing | { ok: false; errors: FilterError[] };

export interface CompileWindowingOptions {
  /** Prefix of the parameter names (default `w_`: w_oldest, w_newest, w_rate, w_cursor_t, …). */
  paramPrefix?: string;
  /** First segment of error paths (default `windowing`). */
  root?: string;
}

const TRACE_KEY = 'max(start_time)';

/**
 * Deviations from the reference, all toward one predictable rule: the window is always
 * `oldest <= start_time < newest` whatever the order; items are ordered by (start_time, trace_id,
 * span_id) (trace focus: (trace key, trace_id)) in the requested order, trace focus included; pages
 * default to DEFAULT_LIMIT items and refuse more than MAX_LIMIT; `next` must be a cursor from this API.
 */
export function compileWindowing(input: unknown, focus: Focus, opts: CompileWindowingOptions = {}): WindowingResult {
  const prefix = opts.paramPrefix ?? 'w_';
  assertParamName(prefix, 'paramPrefix');
  const root: Path = [opts.root ?? 'windowing'];
  const parsed = WindowingSchema.safeParse(input ?? {});
  if (!parsed.success) {
    return { ok: false, errors: parsed.error.issues.map((i) => error([...root, ...i.path.map(pathSegment)], i.message)) };
  }
  const w = parsed.data;
  const order = w.order ?? 'descending';
  const errors: FilterError[] = [];
  if (w.newest != null && w.oldest != null && w.newest <= w.oldest) {
    errors.push(error([...root, 'newest'], 'must be later than windowing.oldest (the window is oldest <= start_time < newest)'));
  }
  const cursor = w.next == null ? undefined : readCursor(w.next, focus);
  if (cursor !== undefined && !cursor.ok) errors.push(error([...root, 'next'], cursor.error));
  if (errors.length > 0) return { ok: false, errors };

  const params: SqlParams = {};
  const ref = (name: string, type: string, value: unknown): string => {
    params[`${prefix}${name}`] = { type, value };
    return `{${prefix}${name}:${type}}`;
  };
  const where: string[] = [];
  if (w.oldest != null) where.push(`start_time >= ${ref('oldest', DATETIME64, toDateTime64Text(w.oldest))}`);
  if (w.newest != null) where.push(`start_time < ${ref('newest', DATETIME64, toDateTime64Text(w.newest))}`);
  if (w.rate != null && w.rate < 1) where.push(sampleByTrace(w.rate, ref));

  const dir = order === 'descending' ? 'DESC' : 'ASC';
  const after = order === 'descending' ? '<' : '>';
  let having = '1';
  let orderBy: string;
  if (focus === 'span') {
    orderBy = `start_time ${dir}, trace_id ${dir}, span_id ${dir}`;
    if (cursor?.ok === true) {
      const c = cursor.value;
      where.push(
        `(start_time, trace_id, span_id) ${after} (${ref('cursor_t', DATETIME64, toDateTime64Text(c.t))}, ${ref('cursor_trace', 'String', c.trace_id)}, ${ref('cursor_span', 'String', c.span_id)})`,
      );
    }
  } else {
    orderBy = `${TRACE_KEY} ${dir}, trace_id ${dir}`;
    if (cursor?.ok === true) {
      const c = cursor.value;
      having = `(${TRACE_KEY}, trace_id) ${after} (${ref('cursor_t', DATETIME64, toDateTime64Text(c.t))}, ${ref('cursor_trace', 'String', c.trace_id)})`;
    }
  }
  const out: CompiledWindowing = {
    ok: true,
    where: where.length === 0 ? '1' : where.map((p) => `(${p})`).join(' AND '),
    having,
    orderBy,
    limit: w.limit ?? DEFAULT_LIMIT,
    order,
    params,
    traceKey: TRACE_KEY,
  };
  if (cursor?.ok === true) out.cursor = cursor.value;
  if (w.interval != null) out.interval = w.interval;
  if (w.rate != null) out.rate = w.rate;
  return out;
}

/**
 * Deterministic sampling by trace, so a sampled trace keeps all its spans: a trace is kept when its
 * hash falls in the first round(rate × 10 000) of 10 000 buckets. The reference uses the first 8 hex
 * digits mod 100; a hash spreads evenly even over non-random ids, and 10 000 buckets resolve rates
 * down to 0.0001 (any positive rate keeps at least one bucket).
 */
function sampleByTrace(rate: number, ref: (name: string, type: string, value: unknown) => string): string {
  const buckets = Math.max(1, Math.round(rate * RATE_BUCKETS));
  return `cityHash64(trace_id) % ${RATE_BUCKETS} < ${ref('rate', 'UInt32', buckets)}`;
}

const NOT_A_CURSOR = 'is not a cursor returned by this API';

type ReadCursor = { ok: true; value: { t: number; trace_id: string; span_id: string } } | { ok: false; error: string };

function readCursor(s: string, focus: Focus): ReadCursor {
  const decoded = decodeCursor(s);
  if (!decoded.ok) return decoded;
  const { t, id } = decoded.value;
  if (focus === 'span') {
    const key = splitSpanKey(id);
    if (key !== undefined) return { ok: true, value: { t, ...key } };
    return { ok: false, error: isTraceKey(id) ? 'is a cursor of a trace query, not of a span query' : NOT_A_CURSOR };
  }
  if (isTraceKey(id)) return { ok: true, value: { t, trace_id: id, span_id: '' } };
  return { ok: false, error: splitSpanKey(id) !== undefined ? 'is a cursor of a span query, not of a trace query' : NOT_A_CURSOR };
}

function error(path: Path, message: string): FilterError {
  return { path, message: `${formatPath(path)}: ${message}` };
}

function pathSegment(s: PropertyKey): string | number {
  return typeof s === 'number' ? s : String(s);
}
