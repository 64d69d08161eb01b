// OpenLLMetry / Traceloop (`traceloop.*`, `llm.*`, legacy `gen_ai.prompt.N.*`). Reference §3.4 (1).

import type { JsonValue } from '@llm/span-model';
import { isJsonObject, parseJson } from './json-values.ts';
import { memoizeRename } from './memoize-rename.ts';
import { PrefixMap, prefixTarget } from './prefix-map.ts';
import { NO_ATTRIBUTES, NO_OUTPUT, type SemconvAdapter, type SemconvAdapterDefinition } from './semconv-adapter.ts';

const TOKENS = 'ag.metrics.tokens.incremental.';

const EXACT: ReadonlyMap<string, string> = new Map([
  ['llm.headers', 'ag.meta.request.headers'],
  ['llm.top_k', 'ag.meta.request.top_k'],
  ['llm.is_streaming', 'ag.meta.request.streaming'],
  ['llm.usage.total_tokens', `${TOKENS}total`],
  ['llm.usage.prompt_tokens', `${TOKENS}prompt`],
  ['llm.usage.completion_tokens', `${TOKENS}completion`],
  ['gen_ai.usage.prompt_tokens', `${TOKENS}prompt`],
  ['gen_ai.usage.completion_tokens', `${TOKENS}completion`],
  ['gen_ai.usage.cache_read_input_tokens', `${TOKENS}cache_read`],
  ['gen_ai.usage.cache_creation_input_tokens', `${TOKENS}cache_creation`],
  ['gen_ai.openai.api_base', 'ag.meta.request.base_url'],
  ['db.system', 'ag.meta.system'],
  ['db.vector.query.top_k', 'ag.meta.request.top_k'],
  ['pinecone.query.top_k', 'ag.meta.request.top_k'],
]);

/** Both name the span type; when both are present the later attribute wins, as upstream. */
const TYPE_KEYS: ReadonlySet<string> = new Set(['llm.request.type', 'traceloop.span.kind']);

/** Indexed families (`gen_ai.prompt.0.role`) keep their suffix under the new prefix. */
const PREFIXES = new PrefixMap([
  ['gen_ai.prompt', 'ag.data.inputs.prompt'],
  ['gen_ai.completion', 'ag.data.outputs.completion'],
  ['llm.request.functions', 'ag.data.inputs.functions'],
  ['llm.request.tools', 'ag.data.inputs.tools'],
]);

const prefixRenamed = memoizeRename((key) => prefixTarget(key, PREFIXES));

export const openLlmetryAdapter: SemconvAdapter = (attrs, { keys }) => {
  let out: Map<string, JsonValue> | undefined;
  let spanType: string | undefined;
  for (const key of keys) {
    const mapped = EXACT.get(key);
    if (mapped !== undefined) {
      (out ??= new Map()).set(mapped, attrs[key] as JsonValue);
    } else if (TYPE_KEYS.has(key)) {
      const value = attrs[key];
      if (typeof value === 'string') spanType = value;
    } else if (key === 'traceloop.entity.input') {
      (out ??= new Map()).set('ag.data.inputs', entityPayload(attrs[key] as JsonValue, 'inputs'));
    } else if (key === 'traceloop.entity.output') {
      (out ??= new Map()).set('ag.data.outputs', entityPayload(attrs[key] as JsonValue, 'outputs'));
    } else {
      const target = prefixRenamed(key);
      if (target !== undefined) (out ??= new Map()).set(target, attrs[key] as JsonValue);
    }
  }
  if (out === undefined && spanType === undefined) return NO_OUTPUT;
  return spanType === undefined ? { attributes: out ?? NO_ATTRIBUTES } : { attributes: out ?? NO_ATTRIBUTES, spanType };
};

/**
 * Traceloop wraps entity payloads as `{"inputs": …}` / `{"outputs": …}`. Upstream takes that member
 * and writes null when it is missing; we fall back to the whole payload (the decorators of the
 * Python SDK send `{"args": …, "kwargs": …}`) and keep non-JSON text as is, so nothing is lost.
 */
function entityPayload(value: JsonValue, member: 'inputs' | 'outputs'): JsonValue {
  const parsed = typeof value === 'string' ? parseJson(value) : value;
  if (parsed === undefined) return value;
  if (isJsonObject(parsed) && Object.hasOwn(parsed, member)) return parsed[member] ?? null;
  return parsed;
}

export const openLlmetry: SemconvAdapterDefinition = {
  name: 'openllmetry',
  handlesKey: (key) =>
    EXACT.has(key) ||
    TYPE_KEYS.has(key) ||
    key === 'traceloop.entity.input' ||
    key === 'traceloop.entity.output' ||
    prefixRenamed(key) !== undefined,
  adapt: openLlmetryAdapter,
};
