// Vercel AI SDK telemetry (`ai.*` attributes). Reference §3.4 (4).

import type { JsonObject, JsonValue } from '@llm/span-model';
import { isJsonObject, parseJsonOrKeep, toFiniteNumber } from './json-values.ts';
import { memoizeRename } from './memoize-rename.ts';
import { NO_ATTRIBUTES, NO_OUTPUT, type SemconvAdapter, type SemconvAdapterDefinition } from './semconv-adapter.ts';

const TOKENS = 'ag.metrics.tokens.incremental.';
const PROMPT_TOKENS = `${TOKENS}prompt`;
const COMPLETION_TOKENS = `${TOKENS}completion`;
const TOTAL_TOKENS = `${TOKENS}total`;

const EXACT: ReadonlyMap<string, string> = new Map([
  ['ai.model.id', 'ag.meta.request.model'],
  ['ai.model.provider', 'ag.meta.system'],
  ['ai.response.model', 'ag.meta.response.model'],
  ['ai.response.id', 'ag.meta.response.id'],
  ['ai.response.timestamp', 'ag.meta.response.timestamp'],
  ['ai.usage.promptTokens', `${TOKENS}prompt`],
  ['ai.usage.inputTokens', `${TOKENS}prompt`],
  ['ai.usage.completionTokens', `${TOKENS}completion`],
  ['ai.usage.outputTokens', `${TOKENS}completion`],
  ['ai.usage.totalTokens', `${TOKENS}total`],
  ['ai.usage.reasoningTokens', `${TOKENS}reasoning`],
  ['ai.usage.cachedInputTokens', `${TOKENS}cached`],
  ['ai.telemetry.metadata.userId', 'ag.user.id'],
  ['ai.telemetry.metadata.sessionId', 'ag.session.id'],
  ['ai.toolCall.name', 'ag.data.inputs.name'],
]);

/** Settings whose Agenta name is not just the snake_case of the SDK name. */
const SETTING_NAMES: Readonly<Record<string, string>> = {
  maxOutputTokens: 'max_tokens',
  maxTokens: 'max_tokens',
};

const SETTINGS = 'ai.settings.';

/** `ai.settings.maxRetries` → `ag.meta.request.max_retries`. */
const setting = memoizeRename((key) => {
  const name = key.slice(SETTINGS.length);
  return `ag.meta.request.${SETTING_NAMES[name] ?? snakeCase(name)}`;
}) as (key: string) => string;

export const vercelAiAdapter: SemconvAdapter = (attrs, { keys }) => {
  let out: Map<string, JsonValue> | undefined;
  let spanType: string | undefined;
  // Response parts are combined after the loop: they share ag.data.outputs.
  let text: JsonValue | undefined;
  let object: JsonValue | undefined;
  let toolCalls: JsonValue | undefined;
  let reasoning: JsonValue | undefined;
  let toolResult: JsonValue | undefined;
  for (const key of keys) {
    if (!key.startsWith('ai.')) continue;
    const value = attrs[key] as JsonValue;
    const mapped = EXACT.get(key);
    if (mapped !== undefined) {
      (out ??= new Map()).set(mapped, value);
      continue;
    }
    switch (key) {
      case 'ai.operationId':
        spanType = operationSpanType(value);
        break;
      case 'ai.prompt':
        (out ??= new Map()).set('ag.data.inputs', parseJsonOrKeep(value));
        break;
      case 'ai.prompt.messages':
        (out ??= new Map()).set('ag.data.inputs.prompt', parseJsonOrKeep(value));
        break;
      case 'ai.response.text':
        text = value;
        break;
      case 'ai.response.object':
        object = parseJsonOrKeep(value);
        break;
      case 'ai.response.toolCalls':
        toolCalls = parseJsonOrKeep(value);
        break;
      case 'ai.response.reasoning':
        reasoning = value;
        break;
      case 'ai.response.finishReason':
        (out ??= new Map()).set('ag.meta.response.finish_reasons', [value]);
        break;
      case 'ai.toolCall.args':
      case 'ai.toolCall.input':
        (out ??= new Map()).set('ag.data.inputs.args', parseJsonOrKeep(value));
        break;
      case 'ai.toolCall.result':
      case 'ai.toolCall.output':
        toolResult = parseJsonOrKeep(value);
        break;
      default:
        if (key.startsWith(SETTINGS)) (out ??= new Map()).set(setting(key), value);
    }
  }
  const outputs = combineOutputs(text ?? object ?? toolResult, toolCalls, reasoning);
  if (outputs !== undefined) (out ??= new Map()).set('ag.data.outputs', outputs);
  if (out === undefined) return spanType === undefined ? NO_OUTPUT : { attributes: NO_ATTRIBUTES, spanType };

  // The SDK (v4) reports no total; roll-ups and analytics need one.
  const prompt = toFiniteNumber(out.get(PROMPT_TOKENS));
  const completion = toFiniteNumber(out.get(COMPLETION_TOKENS));
  if (!out.has(TOTAL_TOKENS) && prompt !== undefined && completion !== undefined) {
    out.set(TOTAL_TOKENS, prompt + completion);
  }
  return spanType === undefined ? { attributes: out } : { attributes: out, spanType };
};

export const vercelAi: SemconvAdapterDefinition = {
  name: 'vercel-ai',
  handlesKey: (key) => key.startsWith('ai.'),
  adapt: vercelAiAdapter,
};

function operationSpanType(value: JsonValue): string {
  if (typeof value !== 'string') return 'task';
  if (value === 'ai.toolCall') return 'tool';
  if (value.startsWith('ai.embed')) return 'embedding';
  return 'task';
}

/**
 * Upstream writes text and object to ag.data.outputs and tool calls / reasoning to keys below it;
 * below a string those would be dropped when the attributes are unflattened. A string output is
 * therefore wrapped as `{text, toolCalls, reasoning}` when there is more to say.
 */
function combineOutputs(
  main: JsonValue | undefined,
  toolCalls: JsonValue | undefined,
  reasoning: JsonValue | undefined,
): JsonValue | undefined {
  if (toolCalls === undefined && reasoning === undefined) return main;
  const extra: JsonObject = {};
  if (toolCalls !== undefined) extra['toolCalls'] = toolCalls;
  if (reasoning !== undefined) extra['reasoning'] = reasoning;
  if (main === undefined) return extra;
  if (isJsonObject(main)) return { ...main, ...extra };
  return { text: main, ...extra };
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
