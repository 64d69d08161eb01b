// Runs the semantic-convention adapters over one span's raw flat attributes and merges their
// output on top (reference §3.4): raw attributes are kept, adapter keys overwrite on collision,
// later adapters overwrite earlier ones.

import type { SpanType } from '@llm/span-model';
import { agentaDefaultAdapter } from './adapters/agenta-default.ts';
import { genAiSemconvAdapter } from './adapters/genai-semconv.ts';
import { openInferenceAdapter } from './adapters/openinference.ts';
import { openLlmetryAdapter } from './adapters/openllmetry.ts';
import { NO_OUTPUT, type AdapterContext, type AdapterOutput, type SemconvAdapter } from './adapters/semconv-adapter.ts';
import { vercelAiAdapter } from './adapters/vercel-ai.ts';
import type { FlatAttributes } from './flat-attributes.ts';
import { toSpanType } from './span-type.ts';

/** In reference order; the Agenta adapter is last so explicit ag.* attributes win. */
export const SEMCONV_ADAPTERS: readonly SemconvAdapter[] = [
  openLlmetryAdapter,
  openInferenceAdapter,
  genAiSemconvAdapter,
  vercelAiAdapter,
  agentaDefaultAdapter,
];

/**
 * Mutates and returns `attrs`: adapter `ag.*` keys are merged in, renamed legacy keys removed, and
 * the derived span type written as `ag.type.span`. Every adapter reads the raw attributes, so the
 * merge happens only after all of them ran.
 */
export function applyAdapters(attrs: FlatAttributes, spanName: string): FlatAttributes {
  const ctx: AdapterContext = { spanName, keys: Object.keys(attrs) };
  const outputs: AdapterOutput[] = [];
  for (const adapter of SEMCONV_ADAPTERS) {
    const output = adapter(attrs, ctx);
    if (output !== NO_OUTPUT) outputs.push(output);
  }
  let spanType: SpanType | undefined;
  for (const output of outputs) {
    if (output.removes !== undefined) for (const key of output.removes) delete attrs[key];
    // Adapter keys all start with "ag.", so plain assignment cannot hit __proto__.
    Object.assign(attrs, output.attributes);
    spanType = toSpanType(output.spanType) ?? spanType;
  }
  if (spanType !== undefined) attrs['ag.type.span'] = spanType;
  return attrs;
}
