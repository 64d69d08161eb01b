// The filtering language of POST /spans/query and /traces/query (reference §5.2) as zod schemas.
// Structure only: which fields exist, which operators a field allows and what a value must look like
// are checked by the compiler, which knows the span table.
import { jsonValue, text, texts, TEXT_LIMITS } from '@llm/contracts';
import { z } from 'zod';

export const LOGICAL_OPERATORS = ['and', 'or', 'not', 'nand', 'nor'] as const;
export const COMPARISON_OPERATORS = ['is', 'is_not'] as const;
export const NUMERIC_OPERATORS = ['eq', 'neq', 'gt', 'lt', 'gte', 'lte', 'btwn'] as const;
export const STRING_OPERATORS = ['startswith', 'endswith', 'contains', 'matches', 'like'] as const;
export const LIST_OPERATORS = ['in', 'not_in'] as const;
export const DICT_OPERATORS = ['has', 'has_not'] as const;
export const EXISTENCE_OPERATORS = ['exists', 'not_exists'] as const;
export const CONDITION_OPERATORS = [
  ...COMPARISON_OPERATORS,
  ...NUMERIC_OPERATORS,
  ...STRING_OPERATORS,
  ...LIST_OPERATORS,
  ...DICT_OPERATORS,
  ...EXISTENCE_OPERATORS,
] as const;

export type LogicalOperator = (typeof LOGICAL_OPERATORS)[number];
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];
export type NumericOperator = (typeof NUMERIC_OPERATORS)[number];
export type StringOperator = (typeof STRING_OPERATORS)[number];
export type ListOperator = (typeof LIST_OPERATORS)[number];
export type DictOperator = (typeof DICT_OPERATORS)[number];
export type ExistenceOperator = (typeof EXISTENCE_OPERATORS)[number];
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

const clip = (v: unknown): string => {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
};

export const LogicalOperatorSchema = z.enum(LOGICAL_OPERATORS, {
  error: (iss) => `unknown logical operator '${clip(iss.input)}' (one of: ${LOGICAL_OPERATORS.join(', ')})`,
});

export const ConditionOperatorSchema = z.enum(CONDITION_OPERATORS, {
  error: (iss) => `unknown operator '${clip(iss.input)}' (one of: ${CONDITION_OPERATORS.join(', ')})`,
});

/** `case_sensitive` and `exact_match` tune string operators; `all` tunes `in` on JSON fields. */
export const ConditionOptionsSchema = z.strictObject({
  case_sensitive: z.boolean().optional(),
  exact_match: z.boolean().optional(),
  all: z.boolean().optional(),
});

export const ConditionSchema = z.strictObject({
  field: text({ min: 1, max: TEXT_LIMITS.shortText, label: 'field' }),
  /** Dotted path inside `attributes`, or inside a link/reference/event/hash element for `has`. */
  key: texts.shortText.nullish(),
  /** Any JSON; an absent value and `null` are different things (`parent_id is null` = roots). */
  value: jsonValue.optional(),
  operator: ConditionOperatorSchema.default('is'),
  options: ConditionOptionsSchema.nullish(),
});

export const FilteringObjectSchema = z.strictObject({
  operator: LogicalOperatorSchema.default('and'),
  get conditions() {
    return z.array(z.union([ConditionSchema, FilteringObjectSchema])).nullish();
  },
});

/** One level of a filtering object, its children left unparsed: the compiler walks levels itself so
 * that it can stop at the depth limit before recursing into a hostile body. */
export const FilteringLevelSchema = z.strictObject({
  operator: LogicalOperatorSchema.default('and'),
  conditions: z.array(z.unknown()).nullish(),
});

/** A filtering object, or its JSON text (the deprecated endpoints send `filter` as a string). */
export const FilteringSchema = z.preprocess(parseJsonText, FilteringObjectSchema);

export type ConditionOptions = z.infer<typeof ConditionOptionsSchema>;
export type Condition = z.infer<typeof ConditionSchema>;
export type ConditionInput = z.input<typeof ConditionSchema>;
export type Filtering = z.infer<typeof FilteringObjectSchema>;
export type FilteringInput = z.input<typeof FilteringObjectSchema>;

// Unparsable text is passed on unchanged so that the object schema reports it as "expected object".
function parseJsonText(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}
