import { PRICE_TABLE, type ModelPrice } from './price-table.ts';
import type { JsonObject, JsonValue, SpanType } from './span.ts';

/**
 * Span types that are model calls and get server-side costs. `llm` is included, unlike the
 * reference system: an `llm` span is a model call like `chat` or `completion`.
 */
export const COST_SPAN_TYPES: ReadonlySet<SpanType> = new Set<SpanType>(['embedding', 'query', 'completion', 'chat', 'rerank', 'llm']);

// Longest prefix first, so `gpt-4o-mini-…` is not priced as `gpt-4o`.
const PREFIXES = Object.keys(PRICE_TABLE).sort((a, b) => b.length - a.length);
// Routing/vendor prefixes before the model name: `us.anthropic.claude-…` (Bedrock).
const VENDOR_DOTS = /^(?:[a-z_]+\.)+/;
const lookups = new Map<string, ModelPrice | null>();
const LOOKUP_CACHE_LIMIT = 1024;

/**
 * Price of a model name: case-insensitive, provider prefixes ignored (`openai/gpt-4o`,
 * `models/gemini-1.5-pro`, `bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0`), dated or tagged
 * variants matched by the longest table prefix (`gpt-4o-2024-08-06`, `claude-sonnet-4-20250514`).
 */
export function lookupPrice(model: string): ModelPrice | undefined {
  const cached = lookups.get(model);
  if (cached !== undefined) return cached ?? undefined;
  const price = findPrice(model);
  if (lookups.size >= LOOKUP_CACHE_LIMIT) lookups.clear();
  lookups.set(model, price ?? null);
  return price;
}

function findPrice(model: string): ModelPrice | undefined {
  let name = model.trim().toLowerCase();
  name = name.slice(name.lastIndexOf('/') + 1).replace(VENDOR_DOTS, '');
  // OpenRouter spells Claude versions with a dot (`claude-3.5-sonnet`).
  if (name.startsWith('claude-')) name = name.replaceAll('.', '-');
  for (const prefix of PREFIXES) {
    if (!name.startsWith(prefix)) continue;
    const next = name.charCodeAt(prefix.length);
    // End, '-', ':', '@': `gpt-4o-2024-08-06`, `…-v1:0`, `…@20240620`.
    if (Number.isNaN(next) || next === 45 || next === 58 || next === 64) return PRICE_TABLE[prefix];
  }
  return undefined;
}

export interface CostVector {
  prompt: number;
  completion: number;
  total: number;
}

/**
 * Incremental USD costs of one model call, or undefined when it cannot be priced (no known model,
 * no prompt/completion tokens). Candidate model names are tried in order; the first one in the
 * price table wins. Cached prompt tokens (`cache_read`, `cached`) are part of the prompt count and
 * priced at the full prompt price: no cache discount, so the estimate errs high.
 */
export function computeCosts(models: readonly (JsonValue | undefined)[], tokens: JsonObject): CostVector | undefined {
  const promptTokens = tokens.prompt;
  const completionTokens = tokens.completion;
  const prompt = typeof promptTokens === 'number' ? promptTokens : 0;
  const completion = typeof completionTokens === 'number' ? completionTokens : 0;
  if (typeof promptTokens !== 'number' && typeof completionTokens !== 'number') return undefined;
  for (const model of models) {
    if (typeof model !== 'string' || model === '') continue;
    const price = lookupPrice(model);
    if (price === undefined) continue;
    const promptCost = (prompt * price.prompt) / 1_000_000;
    const completionCost = (completion * price.completion) / 1_000_000;
    return { prompt: promptCost, completion: completionCost, total: promptCost + completionCost };
  }
  return undefined;
}
