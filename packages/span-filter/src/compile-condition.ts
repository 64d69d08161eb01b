// One condition → one SQL boolean expression. Checks that apply to every field (the field exists,
// allows the operator, takes a key, the options make sense) live here; the value semantics live in
// the per-family compilers.
import { compileAttributeCondition } from './compile-attribute-condition.ts';
import { compileCollectionCondition } from './compile-collection-condition.ts';
import { compileColumnCondition } from './compile-column-condition.ts';
import { allowedOperators, assertNever, FIELDS, UNRECORDED_FIELDS, type FieldSpec } from './field-catalog.ts';
import { STRING_OPERATORS, type Condition } from './filtering-schema.ts';
import type { NormalizedCondition } from './normalized-condition.ts';
import type { ParamSink } from './sql-params.ts';
import { stringMatch } from './sql-string-match.ts';
import { done, fail, show, type Step } from './step.ts';

const ATTRIBUTE_PREFIX = 'attributes.';

export function compileCondition(condition: Condition, sink: ParamSink): Step<string> {
  const resolved = resolveField(condition.field, condition.key ?? undefined);
  if (!resolved.ok) return resolved;
  const spec = resolved.value.spec;
  const c: NormalizedCondition = {
    field: condition.field,
    key: resolved.value.key,
    value: condition.value,
    operator: condition.operator,
    caseSensitive: condition.options?.case_sensitive ?? false,
    exactMatch: condition.options?.exact_match ?? false,
    all: condition.options?.all ?? false,
  };
  const checked = checkShape(spec, c);
  if (!checked.ok) return checked;
  switch (spec.kind) {
    case 'id':
    case 'enum':
    case 'text':
    case 'time':
      return compileColumnCondition(spec, c, sink);
    case 'attributes':
      return compileAttributeCondition(c, sink);
    case 'collection':
      return compileCollectionCondition(spec.column, c, sink);
    case 'content':
      return compileContentCondition(c, sink);
    default:
      return assertNever(spec);
  }
}

/** `attributes.ag.type.span` as a field is shorthand for field `attributes`, key `ag.type.span`. */
function resolveField(field: string, key: string | undefined): Step<{ spec: FieldSpec; key: string | undefined }> {
  const spec = FIELDS.get(field);
  if (spec !== undefined) return done({ spec, key });
  if (field.startsWith(ATTRIBUTE_PREFIX) && field.length > ATTRIBUTE_PREFIX.length) {
    if (key !== undefined) return fail(`give the attribute path either in field or in key, not both`);
    return done({ spec: { kind: 'attributes' }, key: field.slice(ATTRIBUTE_PREFIX.length) });
  }
  if (UNRECORDED_FIELDS.has(field)) return fail(`field '${field}' is not recorded by this service and cannot be filtered on`);
  return fail(`unknown field ${show(field)} (known fields: ${[...FIELDS.keys()].join(', ')})`);
}

function checkShape(spec: FieldSpec, c: NormalizedCondition): Step<true> {
  const allowed = allowedOperators(spec);
  if (!allowed.includes(c.operator)) {
    return fail(`operator '${c.operator}' is not allowed for field '${c.field}' (allowed: ${allowed.join(', ')})`);
  }
  const needsKey = spec.kind === 'attributes' || (spec.kind === 'collection' && (c.operator === 'has' || c.operator === 'has_not'));
  if (!needsKey && c.key !== undefined) return fail(`field '${c.field}' takes no key with operator '${c.operator}'`);
  if ((c.operator === 'exists' || c.operator === 'not_exists') && c.value !== undefined && c.value !== null) {
    return fail(`operator '${c.operator}' takes no value`);
  }
  return checkOptions(spec, c);
}

// Options that would change nothing are refused rather than ignored: a client setting them
// believes they do something.
function checkOptions(spec: FieldSpec, c: NormalizedCondition): Step<true> {
  const stringOp = (STRING_OPERATORS as readonly string[]).includes(c.operator);
  if (c.caseSensitive && !stringOp) return fail('options.case_sensitive applies only to string operators');
  if (c.exactMatch && c.operator !== 'matches') return fail("options.exact_match applies only to operator 'matches'");
  if (c.all && !(c.operator === 'in' && (spec.kind === 'attributes' || spec.kind === 'collection'))) {
    return fail("options.all applies only to operator 'in' on attributes, links, references, events and hashes");
  }
  return done(true);
}

/**
 * `content contains "text"`: a case-insensitive substring search over the JSON text of `attributes`
 * and `events` (the reference runs Postgres full-text search with web-search syntax). The text is
 * searched in its JSON-escaped form, since that is how quotes, backslashes and newlines are stored;
 * the search also sees key names.
 */
function compileContentCondition(c: NormalizedCondition, sink: ParamSink): Step<string> {
  if (typeof c.value !== 'string' || c.value === '') return fail("operator 'contains' on 'content' needs a non-empty string value", ['value']);
  const needle = sink.ref('String', JSON.stringify(c.value).slice(1, -1));
  const opts = { caseSensitive: c.caseSensitive, exactMatch: false };
  return done(`${stringMatch('attributes', 'contains', needle, opts)} OR ${stringMatch('events', 'contains', needle, opts)}`);
}
