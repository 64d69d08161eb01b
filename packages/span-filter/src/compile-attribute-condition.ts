// Conditions on `attributes` (the span's normalised nested attributes, stored as JSON text).
import { checkList } from './compile-column-condition.ts';
import { assertNever } from './field-catalog.ts';
import type { NumericOperator } from './filtering-schema.ts';
import { MAX_KEY_SEGMENTS } from './limits.ts';
import type { NormalizedCondition } from './normalized-condition.ts';
import { containsJson, jsonArgs, jsonHas, leafText, pathParams, someElement, splitKey } from './sql-json.ts';
import type { ParamSink } from './sql-params.ts';
import { stringMatch } from './sql-string-match.ts';
import { done, fail, within, type Step } from './step.ts';

const DOC = 'attributes';

const SQL_COMPARATORS: Record<Exclude<NumericOperator, 'btwn'>, string> = {
  eq: '=',
  neq: '!=',
  gt: '>',
  lt: '<',
  gte: '>=',
  lte: '<=',
};

export function compileAttributeCondition(c: NormalizedCondition, sink: ParamSink): Step<string> {
  if (c.key === undefined) {
    return fail("field 'attributes' needs a key: a dotted path inside attributes, e.g. 'ag.data.inputs.country'");
  }
  const segments = splitKey(c.key, MAX_KEY_SEGMENTS);
  if (!segments.ok) return segments;
  const path = pathParams(segments.value, sink);
  switch (c.operator) {
    case 'is':
    case 'is_not': {
      if (c.value === undefined) return fail(`operator '${c.operator}' needs a value (use 'exists' to test presence)`);
      const r = containsJson(DOC, path, c.value, sink);
      if (!r.ok) return within(['value'], r);
      // `is_not` is also true when the key is missing: "not equal to" includes "not there".
      return done(c.operator === 'is' ? r.value : `NOT (${r.value})`);
    }
    case 'eq':
    case 'neq':
    case 'gt':
    case 'lt':
    case 'gte':
    case 'lte':
      return compare(path, SQL_COMPARATORS[c.operator], c.value, sink);
    case 'btwn':
      return between(path, c.value, sink);
    case 'startswith':
    case 'endswith':
    case 'contains':
    case 'matches':
    case 'like':
      if (typeof c.value !== 'string') return fail(`operator '${c.operator}' needs a string value`, ['value']);
      // Unlike the reference (always case-insensitive here), options.case_sensitive is honoured.
      return done(`${jsonHas(DOC, path)} AND ${stringMatch(leafText(DOC, path), c.operator, sink.ref('String', c.value), c)}`);
    case 'in':
    case 'not_in':
      return membership(path, c, sink);
    case 'exists':
      return done(jsonHas(DOC, path));
    case 'not_exists':
      return done(`NOT ${jsonHas(DOC, path)}`);
    case 'has':
    case 'has_not':
      return fail(`operator '${c.operator}' is not allowed for field 'attributes'`);
    default:
      return assertNever(c.operator);
  }
}

/**
 * A number compares the leaf as a number (a leaf that is not numeric, or missing, never matches;
 * `ifNull` keeps the result a plain boolean so that `not` around it behaves); a string compares the
 * leaf as text, so ISO dates compare in time order.
 */
function compare(path: string[], cmp: string, value: unknown, sink: ParamSink): Step<string> {
  if (typeof value === 'number') {
    return done(`ifNull(toFloat64OrNull(${leafText(DOC, path)}) ${cmp} ${sink.ref('Float64', value)}, 0)`);
  }
  if (typeof value === 'string') {
    return done(`${jsonHas(DOC, path)} AND ${leafText(DOC, path)} ${cmp} ${sink.ref('String', value)}`);
  }
  return fail('value must be a number or a string', ['value']);
}

function between(path: string[], value: unknown, sink: ParamSink): Step<string> {
  if (!Array.isArray(value) || value.length !== 2) return fail("operator 'btwn' needs a value [low, high]", ['value']);
  const [lo, hi] = value as [unknown, unknown];
  if (typeof lo === 'number' && typeof hi === 'number') {
    const leaf = `toFloat64OrNull(${leafText(DOC, path)})`;
    return done(`ifNull(${leaf} BETWEEN ${sink.ref('Float64', lo)} AND ${sink.ref('Float64', hi)}, 0)`);
  }
  if (typeof lo === 'string' && typeof hi === 'string') {
    return done(`${jsonHas(DOC, path)} AND ${leafText(DOC, path)} BETWEEN ${sink.ref('String', lo)} AND ${sink.ref('String', hi)}`);
  }
  return fail("operator 'btwn' needs two numbers or two strings", ['value']);
}

/**
 * `in`: the leaf is one of the values, or is an array holding one of them (`all`: every one). The
 * reference only matches arrays; a scalar attribute `in` a list of its possible values is what users
 * mean, so scalars match too. `not_in`: the key exists and `in` is false.
 */
function membership(path: string[], c: NormalizedCondition, sink: ParamSink): Step<string> {
  const list = checkList(c.value, c.operator);
  if (!list.ok) return list;
  const parts: string[] = [];
  for (let i = 0; i < list.value.length; i++) {
    const item = list.value[i];
    const self = containsJson(DOC, path, item, sink);
    if (!self.ok) return within(['value', i], self);
    const inArray = someElement(DOC, path, item, sink);
    if (!inArray.ok) return within(['value', i], inArray);
    parts.push(`(${self.value} OR (JSONType(${jsonArgs(DOC, path)}) = 'Array' AND ${inArray.value}))`);
  }
  const any = parts.join(c.all && c.operator === 'in' ? ' AND ' : ' OR ');
  return done(c.operator === 'in' ? any : `${jsonHas(DOC, path)} AND NOT (${any})`);
}
