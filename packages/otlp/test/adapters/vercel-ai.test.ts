import { describe, expect, it } from 'vitest';
import { decodeOne } from '../fixtures/build-request.ts';
import { vercelGenerateText } from '../fixtures/llm-spans.ts';

describe('Vercel AI SDK adapter', () => {
  it('when a generateText span is decoded, then prompt, response, usage, model and settings land in ag.*', () => {
    const { attributes } = decodeOne(vercelGenerateText);

    expect(attributes).toMatchObject({
      'ag.type.span': 'task',
      'ag.data.inputs': { system: 'You are terse.', prompt: 'Say hi' },
      'ag.data.outputs': 'Hi!',
      'ag.metrics.tokens.incremental.prompt': 15,
      'ag.metrics.tokens.incremental.completion': 8,
      'ag.metrics.tokens.incremental.total': 23,
      'ag.meta.request.model': 'gpt-4o-mini',
      'ag.meta.system': 'openai.chat',
      'ag.meta.request.max_tokens': 100,
      'ag.meta.request.max_retries': 2,
      'ag.meta.response.finish_reasons': ['stop'],
      'ag.user.id': 'user-9',
      'ag.session.id': 'session-9',
    });
  });

  it('when a doGenerate span answers with text and tool calls, then both survive in ag.data.outputs', () => {
    const { attributes } = decodeOne({
      'ai.operationId': 'ai.generateText.doGenerate',
      'ai.prompt.messages': '[{"role":"user","content":[{"type":"text","text":"Weather?"}]}]',
      'ai.response.text': '',
      'ai.response.toolCalls': '[{"toolCallId":"c1","toolName":"weather","args":"{\\"city\\":\\"Paris\\"}"}]',
      'ai.response.model': 'gpt-4o-mini-2024-07-18',
      'ai.response.id': 'resp-1',
      'ai.usage.inputTokens': 20,
      'ai.usage.outputTokens': 5,
      'ai.usage.totalTokens': 25,
      'ai.usage.cachedInputTokens': 4,
    });

    expect(attributes).toMatchObject({
      'ag.type.span': 'task',
      'ag.data.inputs.prompt': [{ role: 'user', content: [{ type: 'text', text: 'Weather?' }] }],
      'ag.data.outputs': {
        text: '',
        toolCalls: [{ toolCallId: 'c1', toolName: 'weather', args: '{"city":"Paris"}' }],
      },
      'ag.meta.response.model': 'gpt-4o-mini-2024-07-18',
      'ag.meta.response.id': 'resp-1',
      'ag.metrics.tokens.incremental.total': 25,
      'ag.metrics.tokens.incremental.cached': 4,
    });
  });

  it('when a tool call span is decoded, then it is a tool span with name/args inputs and the result as outputs', () => {
    const { attributes } = decodeOne({
      'ai.operationId': 'ai.toolCall',
      'ai.toolCall.name': 'weather',
      'ai.toolCall.args': '{"city":"Paris"}',
      'ai.toolCall.result': '{"temperature":21}',
    });

    expect(attributes).toMatchObject({
      'ag.type.span': 'tool',
      'ag.data.inputs.name': 'weather',
      'ag.data.inputs.args': { city: 'Paris' },
      'ag.data.outputs': { temperature: 21 },
    });
  });

  it('when an embed span is decoded, then it is an embedding span', () => {
    expect(decodeOne({ 'ai.operationId': 'ai.embedMany' }).attributes).toHaveProperty(['ag.type.span'], 'embedding');
  });
});
