// Conditions on plain columns: ids, enums, free text and times.
import { MAX_LIST_VALUES } from './limits.ts';
import { DATETIME64, parseTimeValue, toDateTime64Text } from './ch-time.ts';
import { assertNever, type FieldSpec } from './field-catalog.ts';
import type { NumericOperator, StringOperator } from './filtering-schema.ts';
import type { NormalizedCondition } from './normalized-condition.ts';
import type { ParamSink } from './sql-params.ts';
import { stringMatch } from './sql-string-match.ts';
import { done, fail, show, type Step } from './step.ts';

type ColumnSpec = Extract<FieldSpec, { kind: 'id' | 'enum' | 'text' | 'time' }>;

/** How a column takes values: one parameter type, and a coercion per operator family. */
interface ColumnModel {
  column: string;
  type: string;
  /** For is / is_not / in / not_in. */
  equal(v: unknown): Step<unknown>;
  /** For the numeric operators. */
  ordered(v: unknown): Step<unknown>;
  /** The column as text, for the string operators. */
  text: string;
  /** Whether '' stands for "absent" (so `is null`, `exists` mean something). */
  absentable: boolean;
}

const SQL_COMPARATORS: Record<Exclude<NumericOperator, 'btwn'>, string> = {
  eq: '=',
  neq: '!=',
  gt: '>',
  lt: '<',
  gte: '>=',
  lte: '<=',
};

export function compileColumnCondition(spec: ColumnSpec, c: NormalizedCondition, sink: ParamSink): Step<string> {
  const m = columnModel(spec);
  const col = m.column;
  switch (c.operator) {
    case 'is':
    case 'is_not':
      return equality(m, c, sink);
    case 'eq':
    case 'neq':
    case 'gt':
    case 'lt':
    case 'gte':
    case 'lte': {
      const v = m.ordered(c.value);
      if (!v.ok) return v;
      return done(`${col} ${SQL_COMPARATORS[c.operator]} ${sink.ref(m.type, v.value)}`);
    }
    case 'btwn':
      return between(m, c.value, sink);
    case 'startswith':
    case 'endswith':
    case 'contains':
    case 'matches':
    case 'like':
      return textMatch(m.text, c, c.operator, sink);
    case 'in':
    case 'not_in':
      return membership(m, c, sink);
    case 'exists':
      return done(`notEmpty(${col})`);
    case 'not_exists':
      return done(`empty(${col})`);
    case 'has':
    case 'has_not':
      // Excluded by the field's operator list; kept for exhaustiveness.
      return fail(`operator '${c.operator}' is not allowed for field '${c.field}'`);
    default:
      return assertNever(c.operator);
  }
}

function equality(m: ColumnModel, c: NormalizedCondition, sink: ParamSink): Step<string> {
  const negate = c.operator === 'is_not';
  if (c.value === undefined) return fail(`operator '${c.operator}' needs a value`);
  if (c.value === null) {
    if (!m.absentable) return fail(`field '${c.field}' is never null; give a value`, ['value']);
    return done(negate ? `notEmpty(${m.column})` : `empty(${m.column})`);
  }
  const v = m.equal(c.value);
  if (!v.ok) return v;
  return done(`${m.column} ${negate ? '!=' : '='} ${sink.ref(m.type, v.value)}`);
}

function between(m: ColumnModel, value: unknown, sink: ParamSink): Step<string> {
  if (!Array.isArray(value) || value.length !== 2) return fail("operator 'btwn' needs a value [low, high]", ['value']);
  const lo = m.ordered(value[0]);
  if (!lo.ok) return { ...lo, at: ['value', 0] };
  const hi = m.ordered(value[1]);
  if (!hi.ok) return { ...hi, at: ['value', 1] };
  return done(`${m.column} BETWEEN ${sink.ref(m.type, lo.value)} AND ${sink.ref(m.type, hi.value)}`);
}

function textMatch(text: string, c: NormalizedCondition, op: StringOperator, sink: ParamSink): Step<string> {
  if (typeof c.value !== 'string') return fail(`operator '${op}' needs a string value`, ['value']);
  return done(stringMatch(text, op, sink.ref('String', c.value), c));
}

function membership(m: ColumnModel, c: NormalizedCondition, sink: ParamSink): Step<string> {
  const list = checkList(c.value, c.operator);
  if (!list.ok) return list;
  const values: unknown[] = [];
  for (let i = 0; i < list.value.length; i++) {
    const item = list.value[i];
    if (item === null && m.absentable) {
      values.push('');
      continue;
    }
    const v = item === null ? fail(`field '${c.field}' is never null`) : m.equal(item);
    if (!v.ok) return { ...v, at: ['value', i] };
    values.push(v.value);
  }
  return done(`${m.column} ${c.operator === 'in' ? 'IN' : 'NOT IN'} ${sink.ref(`Array(${m.type})`, values)}`);
}

/** A non-empty list within the size limit. */
export function checkList(value: unknown, op: string): Step<unknown[]> {
  if (!Array.isArray(value) || value.length === 0) return fail(`operator '${op}' needs a non-empty list value`, ['value']);
  if (value.length > MAX_LIST_VALUES) return fail(`lists are limited to ${MAX_LIST_VALUES} items`, ['value']);
  return done(value);
}

function columnModel(spec: ColumnSpec): ColumnModel {
  switch (spec.kind) {
    case 'id': {
      const equal = (v: unknown): Step<unknown> => fromResult(spec.parse(v));
      const ordered = (): Step<unknown> => fail('ids do not order');
      return { column: spec.column, type: 'String', equal, ordered, text: spec.column, absentable: spec.optional };
    }
    case 'enum': {
      const equal = (v: unknown): Step<unknown> =>
        typeof v === 'string' && spec.values.includes(v)
          ? done(v)
          : fail(`${show(v)} is not a valid ${spec.column} (one of: ${spec.values.join(', ')})`, ['value']);
      const ordered = (): Step<unknown> => fail('enums do not order');
      return { column: spec.column, type: 'String', equal, ordered, text: spec.column, absentable: false };
    }
    case 'text':
      return { column: spec.column, type: 'String', equal: textValue, ordered: orderedText, text: spec.column, absentable: true };
    case 'time': {
      const time = (v: unknown): Step<unknown> => {
        const r = parseTimeValue(v);
        return r.ok ? done(toDateTime64Text(r.value)) : fail(r.error, ['value']);
      };
      // String operators match the stored text form: `2024-01-15 10:00:00.000000` (UTC).
      return { column: spec.column, type: DATETIME64, equal: time, ordered: time, text: `toString(${spec.column})`, absentable: false };
    }
    default:
      return assertNever(spec);
  }
}

function textValue(v: unknown): Step<unknown> {
  return typeof v === 'string' ? done(v) : fail('value must be a string', ['value']);
}

// The reference compares text columns "numerically" as text; a number is taken as its decimal text.
function orderedText(v: unknown): Step<unknown> {
  if (typeof v === 'string') return done(v);
  if (typeof v === 'number' && Number.isFinite(v)) return done(String(v));
  return fail('value must be a string or a number', ['value']);
}

function fromResult<T>(r: { ok: true; value: T } | { ok: false; error: string }): Step<T> {
  return r.ok ? done(r.value) : fail(r.error, ['value']);
}
