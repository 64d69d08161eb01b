import type { JsonValue } from '@llm/span-model';
import type { FlatAttributes } from '../flat-attributes.ts';

export interface AdapterContext {
  readonly spanName: string;
  /**
   * The attribute keys to look at: all of `Object.keys(attrs)` is always correct; applyAdapters
   * passes only those the adapter's `handlesKey` accepted, so adapters skip foreign conventions.
   */
  readonly keys: readonly string[];
}

/** What one semantic-convention adapter derives from a span's raw flat attributes. */
export interface AdapterOutput {
  /**
   * `ag.*` keys to set (flat dotted keys; values may be objects or arrays), in the order they should
   * be appended. A Map because merging a Map into the span's attributes is several times cheaper
   * than Object.assign from a large object.
   */
  readonly attributes: ReadonlyMap<string, JsonValue>;
  /** Span type the adapter derived, not yet validated or lower-cased. */
  readonly spanType?: string;
  /** Raw keys this adapter renamed (legacy `ag.*` spellings); they are removed from the output. */
  readonly removes?: readonly string[];
}

/** Adapters see only the raw attributes, never each other's output: order matters only when merging. */
export type SemconvAdapter = (attrs: Readonly<FlatAttributes>, ctx: AdapterContext) => AdapterOutput;

/** An adapter plus the cheap test of which attribute keys concern it (memoised per key). */
export interface SemconvAdapterDefinition {
  readonly name: string;
  readonly handlesKey: (key: string) => boolean;
  readonly adapt: SemconvAdapter;
}

/** Shared empty attribute set, for outputs that only carry a span type. */
export const NO_ATTRIBUTES: ReadonlyMap<string, JsonValue> = new Map();

/** Shared result for spans an adapter has nothing to say about: no allocation on the common path. */
export const NO_OUTPUT: AdapterOutput = Object.freeze({ attributes: NO_ATTRIBUTES });
