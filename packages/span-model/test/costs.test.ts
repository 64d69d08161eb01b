import { describe, expect, it } from 'vitest';

import { COST_SPAN_TYPES, computeCosts, lookupPrice } from '../src/costs.ts';

describe('lookupPrice', () => {
  it.each([
    ['gpt-4o', 2.5],
    ['gpt-4o-2024-08-06', 2.5],
    ['GPT-4o-mini-2024-07-18', 0.15],
    ['openai/gpt-4.1-mini', 0.4],
    ['gpt-4.1', 2],
    ['claude-3-5-sonnet-20241022', 3],
    ['anthropic/claude-3.5-haiku', 0.8],
    ['us.anthropic.claude-sonnet-4-20250514-v1:0', 3],
    ['models/gemini-1.5-flash-002', 0.075],
    ['gemini-1.5-flash-8b', 0.0375],
    ['text-embedding-3-small', 0.02],
  ])('when the model is %s, then it is priced by its table prefix', (model, promptPrice) => {
    expect(lookupPrice(model)?.prompt).toBe(promptPrice);
  });

  it.each(['gpt-4o1', 'my-finetune', 'llama-3-70b', ''])('when the model is unknown (%j), then there is no price', (model) => {
    expect(lookupPrice(model)).toBeUndefined();
  });
});

describe('computeCosts', () => {
  it('when the model is known, then prompt, completion and total are USD from per-1M prices', () => {
    const costs = computeCosts(['gpt-4o-mini'], { prompt: 2_000_000, completion: 1_000_000 });
    expect(costs?.prompt).toBeCloseTo(0.3, 12);
    expect(costs?.completion).toBeCloseTo(0.6, 12);
    expect(costs?.total).toBeCloseTo(0.9, 12);
  });

  it('when the first candidate model is unknown, then the next one is tried', () => {
    expect(computeCosts(['my-proxy-alias', undefined, 'gpt-4o'], { prompt: 1_000_000 })).toEqual({ prompt: 2.5, completion: 0, total: 2.5 });
  });

  it('when cached tokens are reported, then they are priced as prompt tokens (no discount)', () => {
    expect(computeCosts(['gpt-4o'], { prompt: 1_000_000, cache_read: 800_000 })?.prompt).toBe(2.5);
  });

  it('when no model is known or there are no prompt/completion tokens, then there are no costs', () => {
    expect(computeCosts(['unknown-model'], { prompt: 10 })).toBeUndefined();
    expect(computeCosts(['gpt-4o'], { total: 10 })).toBeUndefined();
  });

  it('when the span type is llm, then it is priced like chat (deviation from the reference)', () => {
    expect([...COST_SPAN_TYPES].sort()).toEqual(['chat', 'completion', 'embedding', 'llm', 'query', 'rerank']);
  });
});
