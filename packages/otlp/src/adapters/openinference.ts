// OpenInference (Arize Phoenix instrumentations). Reference §3.4 (2).

import type { JsonValue } from '@llm/span-model';
import { parseJson } from './json-values.ts';
import { memoizeRename } from './memoize-rename.ts';
import { PrefixMap, prefixTarget } from './prefix-map.ts';
import { NO_ATTRIBUTES, NO_OUTPUT, type SemconvAdapter, type SemconvAdapterDefinition } from './semconv-adapter.ts';

const KIND_TO_SPAN_TYPE: Readonly<Record<string, string>> = {
  CHAIN: 'chain',
  RETRIEVER: 'query',
  RERANKER: 'rerank',
  LLM: 'chat',
  EMBEDDING: 'embedding',
  AGENT: 'agent',
  TOOL: 'tool',
  GUARDRAIL: 'task',
  EVALUATOR: 'task',
};

const EXACT: ReadonlyMap<string, string> = new Map([
  ['input.value', 'ag.data.inputs'],
  ['output.value', 'ag.data.outputs'],
  ['input.mime_type', 'ag.meta.input.mime_type'],
  ['output.mime_type', 'ag.meta.output.mime_type'],
  // The response model, not the request one: cost computation reads ag.meta.response.model.
  ['llm.model_name', 'ag.meta.response.model'],
  ['llm.invocation_parameters', 'ag.meta.request'],
  ['llm.provider', 'ag.meta.provider'],
  ['llm.system', 'ag.meta.system'],
  ['llm.function_call', 'ag.data.outputs.function_call'],
  ['embedding.model_name', 'ag.meta.request.model'],
  ['embedding.text', 'ag.data.inputs.embedding.text'],
  ['embedding.vector', 'ag.data.outputs.embedding.vector'],
  ['image.url', 'ag.data.multimedia.image.url'],
  ['audio.url', 'ag.data.multimedia.audio.url'],
  ['audio.mime_type', 'ag.meta.multimedia.audio.mime_type'],
  ['audio.transcript', 'ag.data.multimedia.audio.transcript'],
  ['llm.prompt_template.template', 'ag.meta.prompt_template.template'],
  ['llm.prompt_template.variables', 'ag.meta.prompt_template.variables'],
  ['llm.prompt_template.version', 'ag.meta.prompt_template.version'],
  ['reranker.model_name', 'ag.meta.reranker.model_name'],
  ['reranker.query', 'ag.meta.reranker.query'],
  ['reranker.top_k', 'ag.meta.reranker.top_k'],
  ['session.id', 'ag.session.id'],
  ['user.id', 'ag.user.id'],
  ['tag.tags', 'ag.meta.tags'],
  ['tool.description', 'ag.meta.tool.description'],
  ['tool.json_schema', 'ag.meta.tool.json_schema'],
  ['tool.name', 'ag.meta.tool.name'],
  ['tool.id', 'ag.meta.tool.id'],
  ['tool.parameters', 'ag.meta.tool.parameters'],
  ['tool_call.function.arguments', 'ag.data.inputs.tool_call.function.arguments'],
  ['tool_call.function.name', 'ag.meta.tool_call.function.name'],
  ['tool_call.id', 'ag.meta.tool_call.id'],
  ['document.content', 'ag.data.internals.document.content'],
  ['document.id', 'ag.data.internals.document.id'],
  ['document.metadata', 'ag.data.internals.document.metadata'],
  ['document.score', 'ag.data.internals.document.score'],
  ['metadata', 'ag.meta.metadata'],
]);

const PREFIXES = new PrefixMap([
  ['embedding.embeddings', 'ag.data.inputs.embeddings'],
  ['reranker.input_documents', 'ag.data.inputs.reranker.input_documents'],
  ['reranker.output_documents', 'ag.data.outputs.reranker.output_documents'],
  ['retrieval.documents', 'ag.data.outputs.retrieval.documents'],
  ['message.contents', 'ag.data.inputs.message_contents'],
]);

const INPUT_MESSAGES = 'llm.input_messages.';
const OUTPUT_MESSAGES = 'llm.output_messages.';
const TOKEN_COUNT = 'llm.token_count.';
const TOOL_SCHEMA = /^llm\.tools\.(\d+)\.tool\.json_schema$/;
const MESSAGE_LEVEL = /^(\d+)\.message\.(.+)$/;
const TOOL_CALL_LEVEL = /(\.tool_calls\.\d+)\.tool_call\./;

// Upstream nests detail counts (`prompt_details.cache_read`) under tokens.incremental, which span
// cleaning rejects as non-numeric, quarantining the whole metrics section. Flattening them keeps
// the metrics usable; the names follow the GenAI adapter's cache_read / cache_creation.
const TOKEN_DETAIL_NAMES: Readonly<Record<string, string>> = {
  'prompt_details.cache_read': 'cache_read',
  'prompt_details.cache_write': 'cache_creation',
  'completion_details.reasoning': 'reasoning',
};

/** Every plain rename of this convention: exact keys, message and token families, prefixes. */
const renamed = memoizeRename((key) => {
  const exact = EXACT.get(key);
  if (exact !== undefined) return exact;
  if (key.startsWith(INPUT_MESSAGES)) return `ag.data.inputs.prompt.${messageSuffix(key.slice(INPUT_MESSAGES.length))}`;
  if (key.startsWith(OUTPUT_MESSAGES)) {
    return `ag.data.outputs.completion.${messageSuffix(key.slice(OUTPUT_MESSAGES.length))}`;
  }
  if (key.startsWith(TOKEN_COUNT)) {
    const name = key.slice(TOKEN_COUNT.length);
    return `ag.metrics.tokens.incremental.${TOKEN_DETAIL_NAMES[name] ?? name.replaceAll('.', '_')}`;
  }
  const index = TOOL_SCHEMA.exec(key)?.[1];
  if (index !== undefined) return `ag.data.inputs.tools.${index}`;
  return prefixTarget(key, PREFIXES);
});

export const openInferenceAdapter: SemconvAdapter = (attrs, { keys }) => {
  let out: Map<string, JsonValue> | undefined;
  let spanType: string | undefined;
  // input.value / output.value are held back: for chat spans with messages they are not written.
  let inputValue: JsonValue | undefined;
  let outputValue: JsonValue | undefined;
  let hasInputMessages = false;
  let hasOutputMessages = false;
  for (const key of keys) {
    if (key === 'openinference.span.kind') {
      const value = attrs[key];
      if (typeof value === 'string') spanType = KIND_TO_SPAN_TYPE[value.toUpperCase()] ?? spanType;
      continue;
    }
    const target = renamed(key);
    if (target === undefined) continue;
    const value = attrs[key] as JsonValue;
    if (target === 'ag.data.inputs') inputValue = value;
    else if (target === 'ag.data.outputs') outputValue = value;
    else if (key.startsWith('llm.tools.')) {
      // The schema is the whole OpenAI tool object as JSON; unparseable text is kept verbatim.
      const parsed = parseJson(value);
      if (typeof parsed === 'object' && parsed !== null) (out ??= new Map()).set(target, parsed);
      else (out ??= new Map()).set(`${target}.tool.json_schema`, value);
    } else {
      (out ??= new Map()).set(target, value);
      if (key.startsWith(INPUT_MESSAGES)) hasInputMessages = true;
      else if (key.startsWith(OUTPUT_MESSAGES)) hasOutputMessages = true;
    }
  }
  // Structured messages describe chat/completion I/O better than the generic input/output values.
  const messageSpan = spanType === 'chat' || spanType === 'completion';
  if (inputValue !== undefined && !(messageSpan && hasInputMessages)) (out ??= new Map()).set('ag.data.inputs', inputValue);
  if (outputValue !== undefined && !(messageSpan && hasOutputMessages)) (out ??= new Map()).set('ag.data.outputs', outputValue);
  if (out === undefined) return spanType === undefined ? NO_OUTPUT : { attributes: NO_ATTRIBUTES, spanType };
  return spanType === undefined ? { attributes: out } : { attributes: out, spanType };
};

export const openInference: SemconvAdapterDefinition = {
  name: 'openinference',
  handlesKey: (key) => key === 'openinference.span.kind' || renamed(key) !== undefined,
  adapt: openInferenceAdapter,
};

/** `0.message.tool_calls.1.tool_call.function.name` → `0.tool_calls.1.function.name`. */
function messageSuffix(suffix: string): string {
  const stripped = suffix.replace(MESSAGE_LEVEL, '$1.$2');
  return stripped.includes('.tool_call.') ? stripped.replace(TOOL_CALL_LEVEL, '$1.') : stripped;
}
