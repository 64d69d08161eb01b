import type { SpanType } from '@llm/span-model';

// A Record over SpanType so that adding or removing a span type in span-model breaks this file at
// compile time instead of silently disagreeing.
const SPAN_TYPES: Record<SpanType, true> = {
  agent: true,
  chain: true,
  workflow: true,
  task: true,
  tool: true,
  embedding: true,
  query: true,
  llm: true,
  completion: true,
  chat: true,
  rerank: true,
  unknown: true,
};

/** The lower-cased span type if `value` names one, else undefined. */
export function toSpanType(value: unknown): SpanType | undefined {
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  return Object.hasOwn(SPAN_TYPES, lower) ? (lower as SpanType) : undefined;
}
