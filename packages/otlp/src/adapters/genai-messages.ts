// Message shapes of the GenAI semantic conventions and PydanticAI/Logfire, converted to the
// `{role, content, tool_calls?, thinking?, finish_reason?}` messages the Agenta UI renders.

import type { JsonObject, JsonValue } from '@llm/span-model';
import { isJsonObject, parseJson } from './json-values.ts';

/**
 * A message list from a JSON string or an array. Messages with a `parts` array (GenAI semconv
 * ≥ 1.36, PydanticAI) are converted; anything else is passed through untouched.
 */
export function toChatMessages(value: JsonValue | undefined): JsonValue[] | undefined {
  const list = typeof value === 'string' ? parseJson(value) : value;
  if (!Array.isArray(list)) return undefined;
  return list.map((message) => (isJsonObject(message) && Array.isArray(message['parts']) ? fromParts(message) : message));
}

/** `gen_ai.system_instructions`: a parts array (or plain text) → one system message. */
export function systemMessage(value: JsonValue | undefined): JsonObject | undefined {
  const parsed = typeof value === 'string' ? (parseJson(value) ?? value) : value;
  if (typeof parsed === 'string') return { role: 'system', content: parsed };
  if (Array.isArray(parsed)) return fromParts({ role: 'system', parts: parsed });
  return undefined;
}

/**
 * PydanticAI agent runs carry the whole conversation in `pydantic_ai.all_messages`: everything up
 * to the last user message is the prompt, the rest is what the agent produced.
 */
export function splitConversation(messages: JsonValue[]): { prompt: JsonValue[]; completion: JsonValue[] } {
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (isJsonObject(message) && message['role'] === 'user') {
      lastUser = i;
      break;
    }
  }
  if (lastUser < 0) return { prompt: messages, completion: [] };
  return { prompt: messages.slice(0, lastUser + 1), completion: messages.slice(lastUser + 1) };
}

/**
 * Logfire v1 events (`events` / `all_messages_events` attribute): every event but `gen_ai.choice`
 * is a prompt message; the first `gen_ai.choice` holds the completion message.
 */
export function fromLogfireEvents(value: JsonValue | undefined): { prompt: JsonValue[]; completion: JsonValue[] } | undefined {
  const list = typeof value === 'string' ? parseJson(value) : value;
  if (!Array.isArray(list) || !list.some((e) => isJsonObject(e) && typeof e['event.name'] === 'string')) return undefined;
  const prompt: JsonValue[] = [];
  const completion: JsonValue[] = [];
  for (const event of list) {
    if (!isJsonObject(event)) continue;
    if (event['event.name'] === 'gen_ai.choice') {
      if (completion.length === 0 && isJsonObject(event['message'])) completion.push(pickMessage(event['message']));
    } else {
      const message = pickMessage(event);
      if (Object.keys(message).length > 0) prompt.push(message);
    }
  }
  return { prompt, completion };
}

function pickMessage(source: JsonObject): JsonObject {
  const message: JsonObject = {};
  if ('role' in source) message['role'] = source['role'] ?? null;
  if ('content' in source) message['content'] = source['content'] ?? null;
  if ('tool_calls' in source) message['tool_calls'] = decodeTaggedJson(source['tool_calls'] ?? null);
  return message;
}

/** Agenta SDK encoding of structured values inside strings. */
function decodeTaggedJson(value: JsonValue): JsonValue {
  if (typeof value === 'string' && value.startsWith('@ag.type=json:')) {
    const parsed = parseJson(value.slice('@ag.type=json:'.length));
    if (parsed !== undefined) return parsed;
  }
  return value;
}

function fromParts(message: JsonObject): JsonObject {
  const parts = message['parts'] as JsonValue[];
  const texts: string[] = [];
  const thinking: string[] = [];
  const toolCalls: JsonValue[] = [];
  const toolResponses: JsonObject[] = [];
  let hasOtherParts = false;
  for (const part of parts) {
    if (!isJsonObject(part)) {
      hasOtherParts = true;
      continue;
    }
    switch (part['type']) {
      case 'text':
        texts.push(String(part['content'] ?? ''));
        break;
      case 'thinking':
      case 'reasoning':
        thinking.push(String(part['content'] ?? ''));
        break;
      case 'tool_call': {
        const args = part['arguments'];
        toolCalls.push({
          id: part['id'] ?? null,
          type: 'function',
          function: {
            name: part['name'] ?? null,
            arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
          },
        });
        break;
      }
      case 'tool_call_response':
        toolResponses.push(part);
        break;
      default:
        hasOtherParts = true;
    }
  }
  const out: JsonObject = { role: message['role'] ?? null };
  if (hasOtherParts || (texts.length > 0 && toolResponses.length > 0)) {
    // Media, unknown parts, or text mixed with tool results have no flat rendering: keep the parts.
    out['content'] = parts;
  } else if (texts.length > 0) {
    out['content'] = texts.join('\n');
  } else if (toolResponses.length === 1) {
    const response = toolResponses[0] as JsonObject;
    out['tool_call_id'] = response['id'] ?? null;
    out['content'] = response['response'] ?? response['result'] ?? null;
  } else if (toolResponses.length > 1) {
    out['content'] = toolResponses;
  }
  if (toolCalls.length > 0) out['tool_calls'] = toolCalls;
  if (thinking.length > 0) out['thinking'] = thinking.join('\n');
  if (message['finish_reason'] !== undefined) out['finish_reason'] = message['finish_reason'];
  if (message['name'] !== undefined) out['name'] = message['name'];
  return out;
}
