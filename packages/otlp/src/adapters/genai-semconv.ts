// OpenTelemetry GenAI semantic conventions, as emitted by Logfire and PydanticAI among others.
// Reference §3.4 (3).

import type { JsonValue } from '@llm/span-model';
import type { FlatAttributes } from '../flat-attributes.ts';
import { fromLogfireEvents, splitConversation, systemMessage, toChatMessages } from './genai-messages.ts';
import { parseJsonOrKeep, toFiniteNumber } from './json-values.ts';
import { memoizeRename } from './memoize-rename.ts';
import { NO_OUTPUT, type SemconvAdapter, type SemconvAdapterDefinition } from './semconv-adapter.ts';

const TOKENS = 'ag.metrics.tokens.incremental.';
const PROMPT_TOKENS = `${TOKENS}prompt`;
const COMPLETION_TOKENS = `${TOKENS}completion`;
const TOTAL_TOKENS = `${TOKENS}total`;

const OPERATION_TO_SPAN_TYPE: Readonly<Record<string, string>> = {
  chat: 'chat',
  create_agent: 'agent',
  invoke_agent: 'agent',
  embeddings: 'embedding',
  execute_tool: 'tool',
  generate_content: 'completion',
  text_completion: 'completion',
};

const EXACT: ReadonlyMap<string, string> = new Map([
  ['gen_ai.conversation.id', 'ag.session.id'],
  ['gen_ai.output.type', 'ag.meta.output.type'],
  ['gen_ai.response.finish_reasons', 'ag.meta.response.finish_reasons'],
  ['gen_ai.response.model', 'ag.meta.response.model'],
  ['gen_ai.usage.input_tokens', `${TOKENS}prompt`],
  ['gen_ai.usage.prompt_tokens', `${TOKENS}prompt`],
  ['gen_ai.usage.output_tokens', `${TOKENS}completion`],
  ['gen_ai.usage.completion_tokens', `${TOKENS}completion`],
  ['gen_ai.usage.total_tokens', `${TOKENS}total`],
  ['gen_ai.usage.cache_read.input_tokens', `${TOKENS}cache_read`],
  ['gen_ai.usage.cache_creation.input_tokens', `${TOKENS}cache_creation`],
  ['gen_ai.system', 'ag.meta.system'],
  ['gen_ai.agent.id', 'ag.agent.id'],
  ['gen_ai.agent.name', 'ag.meta.agent.name'],
  ['gen_ai.tool.name', 'ag.meta.tool.name'],
  ['gen_ai.tool.call.id', 'ag.meta.tool.call.id'],
  // PydanticAI's own names.
  ['tool_arguments', 'ag.meta.tool_arguments'],
  ['agent_name', 'ag.meta.agent_name'],
  ['model_name', 'ag.meta.model_name'],
  ['final_result', 'ag.meta.final_result'],
]);

const REQUEST = 'gen_ai.request.';
const REQUEST_TYPE = 'gen_ai.request.type';

/** `gen_ai.request.<param>` → `ag.meta.request.<param>`. */
const requestParameter = memoizeRename((key) =>
  key.startsWith(REQUEST) ? `ag.meta.request.${key.slice(REQUEST.length)}` : undefined,
);

/** Read by name in mapMessages; listed so that a span carrying only these still counts as GenAI. */
const MESSAGE_KEYS: ReadonlySet<string> = new Set([
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.system_instructions',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
  'pydantic_ai.all_messages',
]);

export const genAiSemconvAdapter: SemconvAdapter = (attrs, { keys }) => {
  let out: Map<string, JsonValue> | undefined;
  let spanType: string | undefined;
  let isGenAi = false;
  for (const key of keys) {
    const mapped = EXACT.get(key);
    if (mapped !== undefined) {
      (out ??= new Map()).set(mapped, attrs[key] as JsonValue);
    } else if (MESSAGE_KEYS.has(key)) {
      isGenAi = true;
    } else if (key === 'gen_ai.operation.name') {
      const value = attrs[key];
      spanType = (typeof value === 'string' ? OPERATION_TO_SPAN_TYPE[value] : undefined) ?? 'task';
    } else if (key === REQUEST_TYPE) {
      const value = attrs[key];
      if (typeof value === 'string') spanType = value;
    } else {
      const target = requestParameter(key);
      if (target !== undefined) (out ??= new Map()).set(target, attrs[key] as JsonValue);
    }
  }
  // The data mappings below only make sense on spans that speak GenAI at all (upstream gates them
  // the same way); `events` in particular is too generic an attribute name to trust on its own.
  if (out === undefined && spanType === undefined && !isGenAi) return NO_OUTPUT;
  out ??= new Map();

  const prompt = out.get(PROMPT_TOKENS);
  const completion = out.get(COMPLETION_TOKENS);
  if (!out.has(TOTAL_TOKENS) && prompt !== undefined && completion !== undefined) {
    const p = toFiniteNumber(prompt);
    const c = toFiniteNumber(completion);
    if (p !== undefined && c !== undefined) out.set(TOTAL_TOKENS, p + c);
  }

  mapMessages(attrs, out);
  return spanType === undefined ? { attributes: out } : { attributes: out, spanType };
};

export const genAiSemconv: SemconvAdapterDefinition = {
  name: 'genai-semconv',
  handlesKey: (key) => EXACT.has(key) || MESSAGE_KEYS.has(key) || key === 'gen_ai.operation.name' || key.startsWith(REQUEST),
  adapt: genAiSemconvAdapter,
};

/** Later sources win: Logfire v1 events, then semconv messages, then agent runs, then tool calls. */
function mapMessages(attrs: Readonly<FlatAttributes>, out: Map<string, JsonValue>): void {
  const logfire = fromLogfireEvents(attrs['events'] ?? attrs['all_messages_events']);
  if (logfire !== undefined) {
    if (logfire.prompt.length > 0) out.set('ag.data.inputs.prompt', logfire.prompt);
    if (logfire.completion.length > 0) out.set('ag.data.outputs.completion', logfire.completion);
  }

  const input = toChatMessages(attrs['gen_ai.input.messages']);
  const system = systemMessage(attrs['gen_ai.system_instructions']);
  if (input !== undefined || system !== undefined) {
    out.set('ag.data.inputs.prompt', system === undefined ? (input ?? []) : [system, ...(input ?? [])]);
  }
  const output = toChatMessages(attrs['gen_ai.output.messages']);
  if (output !== undefined) out.set('ag.data.outputs.completion', output);

  const conversation = toChatMessages(attrs['pydantic_ai.all_messages']);
  if (conversation !== undefined) {
    const { prompt, completion } = splitConversation(conversation);
    out.set('ag.data.inputs.prompt', prompt);
    if (completion.length > 0) out.set('ag.data.outputs.completion', completion);
    else if (attrs['final_result'] !== undefined) {
      out.set('ag.data.outputs.completion', [{ role: 'assistant', content: attrs['final_result'] }]);
    }
  }

  const toolName = attrs['gen_ai.tool.name'];
  if (toolName !== undefined) {
    const args = attrs['gen_ai.tool.call.arguments'] ?? attrs['tool_arguments'];
    out.set('ag.data.inputs', args === undefined ? { name: toolName } : { name: toolName, arguments: parseJsonOrKeep(args) });
    const result = attrs['gen_ai.tool.call.result'] ?? attrs['tool_response'];
    if (result !== undefined) out.set('ag.data.outputs', parseJsonOrKeep(result));
  }
}
