// Runs the semantic-convention adapters over one span's raw flat attributes and merges their
// output on top (reference §3.4): raw attributes are kept, adapter keys overwrite on collision,
// later adapters overwrite earlier ones.

import type { SpanType } from '@llm/span-model';
import { agentaDefault } from './adapters/agenta-default.ts';
import { genAiSemconv } from './adapters/genai-semconv.ts';
import { openInference } from './adapters/openinference.ts';
import { openLlmetry } from './adapters/openllmetry.ts';
import { NO_OUTPUT, type AdapterOutput, type SemconvAdapterDefinition } from './adapters/semconv-adapter.ts';
import { vercelAi } from './adapters/vercel-ai.ts';
import type { FlatAttributes } from './flat-attributes.ts';
import { toSpanType } from './span-type.ts';

/** In reference order; the Agenta adapter is last so explicit ag.* attributes win. */
export const SEMCONV_ADAPTERS: readonly SemconvAdapterDefinition[] = [
  openLlmetry,
  openInference,
  genAiSemconv,
  vercelAi,
  agentaDefault,
];

// Which adapters care about a key, as a bit set over SEMCONV_ADAPTERS. Keys repeat across spans,
// so this is one Map lookup per key instead of every adapter testing every key. Keys are
// client-controlled: the memo is bounded and simply restarts when full.
const MEMO_LIMIT = 20_000;
const interestMemo = new Map<string, number>();

function interestIn(key: string): number {
  let mask = interestMemo.get(key);
  if (mask === undefined) {
    mask = 0;
    for (let i = 0; i < SEMCONV_ADAPTERS.length; i++) {
      if ((SEMCONV_ADAPTERS[i] as SemconvAdapterDefinition).handlesKey(key)) mask |= 1 << i;
    }
    if (interestMemo.size >= MEMO_LIMIT) interestMemo.clear();
    interestMemo.set(key, mask);
  }
  return mask;
}

/**
 * Mutates and returns `attrs`: adapter `ag.*` keys are merged in, renamed legacy keys removed, and
 * the derived span type written as `ag.type.span`. Every adapter reads the raw attributes, so the
 * merge happens only after all of them ran. `keys` defaults to `Object.keys(attrs)`; the decoder
 * passes the keys it just wrote to save enumerating a large dictionary-mode object.
 */
export function applyAdapters(
  attrs: FlatAttributes,
  spanName: string,
  keys: readonly string[] = Object.keys(attrs),
): FlatAttributes {
  const keysByAdapter: Array<string[] | undefined> = [];
  for (const key of keys) {
    let mask = interestIn(key);
    for (let i = 0; mask !== 0; i++, mask >>>= 1) if (mask & 1) (keysByAdapter[i] ??= []).push(key);
  }
  const outputs: AdapterOutput[] = [];
  for (let i = 0; i < SEMCONV_ADAPTERS.length; i++) {
    const adapterKeys = keysByAdapter[i];
    if (adapterKeys === undefined) continue;
    const output = (SEMCONV_ADAPTERS[i] as SemconvAdapterDefinition).adapt(attrs, { spanName, keys: adapterKeys });
    if (output !== NO_OUTPUT) outputs.push(output);
  }
  let spanType: SpanType | undefined;
  for (const output of outputs) {
    if (output.removes !== undefined) for (const key of output.removes) delete attrs[key];
    // Adapter keys all start with "ag.", so plain assignment cannot hit __proto__.
    for (const [key, value] of output.attributes) attrs[key] = value;
    spanType = toSpanType(output.spanType) ?? spanType;
  }
  if (spanType !== undefined) attrs['ag.type.span'] = spanType;
  return attrs;
}
