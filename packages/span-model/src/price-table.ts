/** USD per 1,000,000 tokens. */
export interface ModelPrice {
  prompt: number;
  completion: number;
}

/**
 * Source: the providers' public list prices as of 2025 (OpenAI, Anthropic, Google pricing pages),
 * standard tier, no batch or cache discounts; Gemini 1.5 at the ≤128k-context rate. Approximate:
 * good enough for dashboards, not for billing. Clients that know their real price send
 * `ag.metrics.costs.incremental` and it is kept.
 */
export const PRICE_TABLE_AS_OF = '2025';

/** Keys are lowercase model-name prefixes; dated variants (`gpt-4o-2024-08-06`) match by prefix. */
export const PRICE_TABLE: Readonly<Record<string, ModelPrice>> = {
  'gpt-4o': { prompt: 2.5, completion: 10 },
  'gpt-4o-mini': { prompt: 0.15, completion: 0.6 },
  'gpt-4.1': { prompt: 2, completion: 8 },
  'gpt-4.1-mini': { prompt: 0.4, completion: 1.6 },
  'gpt-4.1-nano': { prompt: 0.1, completion: 0.4 },
  'o3-mini': { prompt: 1.1, completion: 4.4 },
  'gpt-3.5-turbo': { prompt: 0.5, completion: 1.5 },
  'claude-3-5-sonnet': { prompt: 3, completion: 15 },
  'claude-3-5-haiku': { prompt: 0.8, completion: 4 },
  'claude-sonnet-4': { prompt: 3, completion: 15 },
  'text-embedding-3-small': { prompt: 0.02, completion: 0 },
  'text-embedding-3-large': { prompt: 0.13, completion: 0 },
  'gemini-1.5-pro': { prompt: 1.25, completion: 5 },
  'gemini-1.5-flash': { prompt: 0.075, completion: 0.3 },
  'gemini-1.5-flash-8b': { prompt: 0.0375, completion: 0.15 },
};
