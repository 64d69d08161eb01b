// The filterable fields of a span and the operator families each one allows (reference §5.2), mapped
// to the columns of the ClickHouse span table (projector-spans/migrations/0001-spans.sql).
import { parseSpanId, parseTraceId, SPAN_KINDS, SPAN_TYPES, STATUS_CODES, TRACE_TYPES, type Result } from '@llm/span-model';

import {
  COMPARISON_OPERATORS,
  DICT_OPERATORS,
  EXISTENCE_OPERATORS,
  LIST_OPERATORS,
  NUMERIC_OPERATORS,
  STRING_OPERATORS,
  type ConditionOperator,
} from './filtering-schema.ts';

export type Collection = 'links' | 'references' | 'events' | 'hashes';

export type FieldSpec =
  /** Hex ids; `optional` ids are '' when absent (parent_id of a root span). */
  | { kind: 'id'; column: string; parse: (v: unknown) => Result<string>; optional: boolean }
  | { kind: 'enum'; column: string; values: readonly string[] }
  /** Free text; '' when absent. */
  | { kind: 'text'; column: string }
  | { kind: 'time'; column: string }
  | { kind: 'attributes' }
  /** JSON array text; links is '' when the span has none, the others '[]'. */
  | { kind: 'collection'; column: Collection }
  | { kind: 'content' };

export type FieldKind = FieldSpec['kind'];

// A Map, not an object literal: field names are user text and must not reach Object.prototype.
export const FIELDS: ReadonlyMap<string, FieldSpec> = new Map<string, FieldSpec>([
  ['trace_id', { kind: 'id', column: 'trace_id', parse: parseTraceId, optional: false }],
  ['span_id', { kind: 'id', column: 'span_id', parse: parseSpanId, optional: false }],
  ['parent_id', { kind: 'id', column: 'parent_id', parse: parseSpanId, optional: true }],
  ['trace_type', { kind: 'enum', column: 'trace_type', values: TRACE_TYPES }],
  ['span_type', { kind: 'enum', column: 'span_type', values: SPAN_TYPES }],
  ['span_kind', { kind: 'enum', column: 'span_kind', values: SPAN_KINDS }],
  ['status_code', { kind: 'enum', column: 'status_code', values: STATUS_CODES }],
  ['span_name', { kind: 'text', column: 'span_name' }],
  ['status_message', { kind: 'text', column: 'status_message' }],
  ['session_id', { kind: 'text', column: 'session_id' }],
  ['user_id', { kind: 'text', column: 'user_id' }],
  ['start_time', { kind: 'time', column: 'start_time' }],
  ['end_time', { kind: 'time', column: 'end_time' }],
  ['created_at', { kind: 'time', column: 'created_at' }],
  ['attributes', { kind: 'attributes' }],
  ['links', { kind: 'collection', column: 'links' }],
  ['references', { kind: 'collection', column: 'references' }],
  ['events', { kind: 'collection', column: 'events' }],
  ['hashes', { kind: 'collection', column: 'hashes' }],
  ['content', { kind: 'content' }],
]);

/**
 * Fields the reference knows but this store does not record. Filtering on them is an error rather
 * than a clause that silently matches everything or nothing: `agent_id` is always null in the
 * reference, deleted spans are never readable, and creator/updater ids and update times are not kept.
 */
export const UNRECORDED_FIELDS: ReadonlySet<string> = new Set([
  'agent_id',
  'created_by_id',
  'updated_by_id',
  'deleted_by_id',
  'updated_at',
  'deleted_at',
]);

const ID_OPERATORS = [...COMPARISON_OPERATORS, ...LIST_OPERATORS] as const;

export function allowedOperators(spec: FieldSpec): readonly ConditionOperator[] {
  switch (spec.kind) {
    case 'id':
      // Existence on parent_id (= "is a child span") is an addition: the reference only offers `is null`.
      return spec.optional ? [...ID_OPERATORS, ...EXISTENCE_OPERATORS] : ID_OPERATORS;
    case 'enum':
      return ID_OPERATORS;
    case 'text':
      return [...COMPARISON_OPERATORS, ...NUMERIC_OPERATORS, ...STRING_OPERATORS, ...LIST_OPERATORS, ...EXISTENCE_OPERATORS];
    case 'time':
      return [...COMPARISON_OPERATORS, ...NUMERIC_OPERATORS, ...STRING_OPERATORS, ...LIST_OPERATORS];
    case 'attributes':
      // The reference accepts has/has_not here and ignores them; we refuse them instead.
      return [...COMPARISON_OPERATORS, ...NUMERIC_OPERATORS, ...STRING_OPERATORS, ...LIST_OPERATORS, ...EXISTENCE_OPERATORS];
    case 'collection':
      return [...LIST_OPERATORS, ...DICT_OPERATORS, ...EXISTENCE_OPERATORS];
    case 'content':
      return ['contains'];
    default:
      return assertNever(spec);
  }
}

export function assertNever(x: never): never {
  throw new Error(`unexpected ${JSON.stringify(x)}`);
}
