import { describe, expect, it } from 'vitest';
import { decodeOne } from '../fixtures/build-request.ts';
import { openLlmetryLlm, openLlmetryWorkflow } from '../fixtures/llm-spans.ts';

describe('OpenLLMetry / Traceloop adapter', () => {
  it('when a Traceloop workflow span is decoded, then its entity input/output members become ag.data', () => {
    const { attributes } = decodeOne(openLlmetryWorkflow);

    expect(attributes).toMatchObject({
      'ag.type.span': 'workflow',
      'ag.data.inputs': { question: 'What is OTLP?' },
      'ag.data.outputs': { answer: 'A protocol.' },
      'traceloop.entity.name': 'answer_question',
    });
  });

  it('when an OpenLLMetry LLM span is decoded, then prompts, completions, usage and request meta land in ag.*', () => {
    const { attributes } = decodeOne(openLlmetryLlm);

    expect(attributes).toMatchObject({
      'ag.type.span': 'chat',
      'ag.data.inputs.prompt.0.role': 'user',
      'ag.data.inputs.prompt.0.content': 'What is OTLP?',
      'ag.data.outputs.completion.0.content': 'A protocol.',
      'ag.data.outputs.completion.0.finish_reason': 'stop',
      'ag.data.inputs.functions.0.name': 'search',
      'ag.metrics.tokens.incremental.prompt': 11,
      'ag.metrics.tokens.incremental.completion': 4,
      'ag.metrics.tokens.incremental.total': 15,
      'ag.meta.request.streaming': false,
      'ag.meta.request.headers': 'None',
      'ag.meta.request.base_url': 'https://api.openai.com/v1/',
      'ag.meta.request.model': 'gpt-3.5-turbo',
      'ag.meta.response.model': 'gpt-3.5-turbo-0125',
    });
  });

  it('when the entity input is not wrapped in "inputs", then the whole payload is kept instead of null', () => {
    const { attributes } = decodeOne({
      'traceloop.span.kind': 'task',
      'traceloop.entity.input': '{"args": ["x"], "kwargs": {"k": 1}}',
      'traceloop.entity.output': 'plain text result',
    });

    expect(attributes).toMatchObject({
      'ag.type.span': 'task',
      'ag.data.inputs': { args: ['x'], kwargs: { k: 1 } },
      'ag.data.outputs': 'plain text result',
    });
  });

  it('when db attributes describe a vector query, then system and top_k become meta', () => {
    const { attributes } = decodeOne({ 'db.system': 'pinecone', 'pinecone.query.top_k': 5 });

    expect(attributes).toMatchObject({ 'ag.meta.system': 'pinecone', 'ag.meta.request.top_k': 5 });
  });
});
