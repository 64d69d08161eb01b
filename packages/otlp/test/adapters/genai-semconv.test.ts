import { describe, expect, it } from 'vitest';
import { decodeOne } from '../fixtures/build-request.ts';
import { genAiChat, pydanticAiAgentRun, pydanticAiChat, pydanticAiTool } from '../fixtures/llm-spans.ts';

describe('GenAI semconv / Logfire / PydanticAI adapter', () => {
  it('when a GenAI chat span is decoded, then usage, models, request params and conversation land in ag.*', () => {
    const { attributes } = decodeOne(genAiChat);

    expect(attributes).toMatchObject({
      'ag.type.span': 'chat',
      'ag.metrics.tokens.incremental.prompt': 42,
      'ag.metrics.tokens.incremental.completion': 8,
      'ag.metrics.tokens.incremental.total': 50,
      'ag.metrics.tokens.incremental.cache_read': 12,
      'ag.meta.request.model': 'gpt-4o',
      'ag.meta.request.temperature': 0.7,
      'ag.meta.request.max_tokens': 256,
      'ag.meta.response.model': 'gpt-4o-2024-08-06',
      'ag.meta.response.finish_reasons': ['stop'],
      'ag.meta.system': 'openai',
      'ag.session.id': 'conv-1',
      // raw attributes are kept
      'gen_ai.usage.input_tokens': 42,
      'server.address': 'api.openai.com',
    });
  });

  it('when the client reports a total, then it is not recomputed', () => {
    const { attributes } = decodeOne({ ...genAiChat, 'gen_ai.usage.total_tokens': 99 });

    expect(attributes).toHaveProperty(['ag.metrics.tokens.incremental.total'], 99);
  });

  it.each([
    ['chat', 'chat'],
    ['create_agent', 'agent'],
    ['invoke_agent', 'agent'],
    ['embeddings', 'embedding'],
    ['execute_tool', 'tool'],
    ['generate_content', 'completion'],
    ['text_completion', 'completion'],
    ['something_new', 'task'],
  ])('when gen_ai.operation.name is %s, then the span type is %s', (operation, spanType) => {
    expect(decodeOne({ 'gen_ai.operation.name': operation }).attributes).toHaveProperty(['ag.type.span'], spanType);
  });

  it('when PydanticAI sends parts-based messages, then they become role/content/tool_calls/thinking messages', () => {
    const { attributes } = decodeOne(pydanticAiChat);

    expect(attributes).toMatchObject({
      'ag.type.span': 'chat',
      'ag.data.inputs.prompt': [
        { role: 'system', content: 'Be concise.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'user', tool_call_id: 'call_1', content: 'sunny, 21°C' },
      ],
      'ag.data.outputs.completion': [
        { role: 'assistant', content: 'Sunny and 21°C.', thinking: 'The tool said sunny.', finish_reason: 'stop' },
      ],
    });
  });

  it('when a PydanticAI agent run carries all messages, then they split at the last user message', () => {
    const { attributes } = decodeOne(pydanticAiAgentRun);

    expect(attributes).toMatchObject({
      'ag.type.span': 'agent',
      'ag.meta.agent.name': 'weather_agent',
      'ag.data.inputs.prompt': [
        { role: 'system', content: 'Be concise.' },
        { role: 'user', content: 'Weather in Paris?' },
      ],
      'ag.data.outputs.completion': [{ role: 'assistant', content: 'Sunny.', finish_reason: 'stop' }],
    });
  });

  it('when an agent run ends on the user message, then final_result is the completion', () => {
    const { attributes } = decodeOne({
      ...pydanticAiAgentRun,
      'pydantic_ai.all_messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Hi' }] }]),
    });

    expect(attributes).toHaveProperty(['ag.data.outputs.completion'], [{ role: 'assistant', content: 'Sunny.' }]);
  });

  it('when a tool span is decoded, then inputs are {name, arguments} and outputs the tool result', () => {
    const { attributes } = decodeOne(pydanticAiTool);

    expect(attributes).toMatchObject({
      'ag.type.span': 'tool',
      'ag.data.inputs': { name: 'get_weather', arguments: { city: 'Paris' } },
      'ag.data.outputs': 'sunny, 21°C',
      'ag.meta.tool.name': 'get_weather',
      'ag.meta.tool.call.id': 'call_1',
    });
  });

  it('when Logfire v1 events carry the conversation, then they become prompt and completion', () => {
    const events = [
      { 'event.name': 'gen_ai.system.message', role: 'system', content: 'Be nice.' },
      { 'event.name': 'gen_ai.user.message', role: 'user', content: 'Hello' },
      { 'event.name': 'gen_ai.choice', index: 0, message: { role: 'assistant', content: 'Hi there' } },
    ];
    const { attributes } = decodeOne({ 'gen_ai.operation.name': 'chat', events: JSON.stringify(events) });

    expect(attributes).toMatchObject({
      'ag.data.inputs.prompt': [
        { role: 'system', content: 'Be nice.' },
        { role: 'user', content: 'Hello' },
      ],
      'ag.data.outputs.completion': [{ role: 'assistant', content: 'Hi there' }],
    });
  });

  it('when a non-GenAI span has an `events` attribute, then it is left alone', () => {
    const { attributes } = decodeOne({ events: '[{"event.name": "x", "role": "user"}]' });

    expect(Object.keys(attributes ?? {})).toEqual(['events']);
  });
});
