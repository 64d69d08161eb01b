import type { JsonValue } from '@llm/span-model';

/**
 * Span attributes keyed by their original dotted OTLP keys (`gen_ai.usage.input_tokens`), in wire
 * order. Values may be nested (kvlists, arrays, parsed JSON); the span-model package unflattens.
 */
export type FlatAttributes = Record<string, JsonValue>;

/** Assignment that cannot reach Object.prototype, whatever key a client sends. */
export function setAttribute(target: Record<string, JsonValue>, key: string, value: JsonValue): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
