import { describe, expect, it } from 'vitest';
import { openInferenceAdapter } from '../../src/adapters/openinference.ts';
import { decodeOne } from '../fixtures/build-request.ts';
import { openInferenceChat } from '../fixtures/llm-spans.ts';

describe('OpenInference adapter', () => {
  it('when an OpenInference chat span is decoded, then messages, tokens, model and ids land in ag.*', () => {
    const { attributes } = decodeOne(openInferenceChat);

    expect(attributes).toMatchObject({
      'ag.type.span': 'chat',
      'ag.data.inputs.prompt.0.role': 'system',
      'ag.data.inputs.prompt.1.content': 'What is the capital of France?',
      'ag.data.outputs.completion.0.content': 'Paris.',
      // the `.tool_call.` level of OpenInference is removed
      'ag.data.outputs.completion.0.tool_calls.0.function.name': 'lookup_city',
      'ag.data.outputs.completion.0.tool_calls.0.function.arguments': '{"city": "Paris"}',
      'ag.metrics.tokens.incremental.prompt': 25,
      'ag.metrics.tokens.incremental.completion': 3,
      'ag.metrics.tokens.incremental.total': 28,
      'ag.metrics.tokens.incremental.cache_read': 10,
      'ag.meta.response.model': 'gpt-4o-mini-2024-07-18',
      'ag.meta.request': '{"model": "gpt-4o-mini", "temperature": 0.1}',
      'ag.meta.provider': 'openai',
      'ag.meta.system': 'openai',
      'ag.data.inputs.tools.0': { type: 'function', function: { name: 'lookup_city', parameters: { type: 'object' } } },
      'ag.session.id': 'session-42',
      'ag.user.id': 'user-7',
      'ag.meta.metadata': '{"tenant": "acme"}',
    });
  });

  it('when a chat span has structured messages, then the generic input/output values are not mapped but stay raw', () => {
    const { attributes } = decodeOne(openInferenceChat);

    expect(attributes).not.toHaveProperty(['ag.data.inputs']);
    expect(attributes).not.toHaveProperty(['ag.data.outputs']);
    expect(attributes).toHaveProperty(['input.value'], openInferenceChat['input.value']);
    expect(attributes).toHaveProperty(['llm.input_messages.0.message.role'], 'system');
  });

  it('when a chain span has input and output values, then they map to ag.data inputs and outputs', () => {
    const { attributes } = decodeOne({
      'openinference.span.kind': 'CHAIN',
      'input.value': '{"question": "why?"}',
      'output.value': 'because',
    });

    expect(attributes).toMatchObject({
      'ag.type.span': 'chain',
      'ag.data.inputs': '{"question": "why?"}',
      'ag.data.outputs': 'because',
    });
  });

  it.each([
    ['RETRIEVER', 'query'],
    ['RERANKER', 'rerank'],
    ['EMBEDDING', 'embedding'],
    ['AGENT', 'agent'],
    ['TOOL', 'tool'],
    ['GUARDRAIL', 'task'],
    ['EVALUATOR', 'task'],
    ['llm', 'chat'],
  ])('when openinference.span.kind is %s, then the span type is %s', (kind, spanType) => {
    expect(decodeOne({ 'openinference.span.kind': kind }).attributes).toHaveProperty(['ag.type.span'], spanType);
  });

  it('when a retriever span lists documents, then they land under ag.data.outputs.retrieval', () => {
    const { attributes } = decodeOne({
      'openinference.span.kind': 'RETRIEVER',
      'retrieval.documents.0.document.content': 'Paris is the capital.',
      'retrieval.documents.0.document.score': 0.92,
    });

    expect(attributes).toMatchObject({
      'ag.data.outputs.retrieval.documents.0.document.content': 'Paris is the capital.',
      'ag.data.outputs.retrieval.documents.0.document.score': 0.92,
    });
  });

  it('when the adapter is called directly on unrelated attributes, then it has nothing to say', () => {
    const attrs = { 'http.method': 'GET' };

    expect(openInferenceAdapter(attrs, { spanName: 'GET', keys: Object.keys(attrs) }).attributes.size).toBe(0);
  });
});
