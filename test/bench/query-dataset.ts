// The dataset of `npm run bench:query`: realistic LLM traces (an agent workflow with retrieval,
// chat completions with token and cost metrics, tool calls, ~3 % errors with exception events) over
// 30 days, spread over a few thousand sessions and users. Spans go through the ingest path's own
// normalisation (span-model), the command's grouping into per-trace records, and the projector's own
// state transition and writer (roll-up of cumulative metrics, trace index), so the table holds
// exactly what the projector writes.
import { randomBytes } from 'node:crypto';
import type { Clickhouse } from '@llm/clickhouse';
import type { DecodedEvent } from '@llm/events';
import { normalizeBatch, type RawSpan } from '@llm/span-model';
import { spanTables } from '@llm/span-table';
import { groupByTrace } from '../../services/command/src/ingest/domain/span-records.ts';
import { applyTraceEvent } from '../../services/projector-spans/src/domain/trace-state.ts';
import { insertSpanRows } from '../../services/projector-spans/src/adapters/span-table-writer.ts';
import type { SpanRow } from '../../services/projector-spans/src/domain/span-row.ts';

export const SPANS_PER_TRACE = 10;
export const DAY_US = 86_400_000_000;

export interface DatasetShape {
  traces: number;
  days: number;
  sessions: number;
  users: number;
  /** Exclusive end of the data (µs); the data covers [endUs − days, endUs). */
  endUs: number;
}

const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet', 'llama-3.1-70b', 'mistral-large', 'gemini-1.5-pro'] as const;
const APPS = ['support-bot', 'rag-search', 'code-review', 'sales-assistant'] as const;
const ENVS = ['production', 'production', 'production', 'staging'] as const;
const TOOLS = ['search_kb', 'lookup_order', 'send_email', 'get_weather'] as const;
const QUESTIONS = [
  'How do I reset my password when the reset email never arrives?',
  'Summarise the refund policy for annual plans purchased through a reseller.',
  'Which regions support data residency for the enterprise tier, and since when?',
  'Write a short apology to a customer whose order arrived two weeks late.',
  'What changed between version 3 and version 4 of the public API?',
];

/** A small deterministic generator (xorshift) so two runs build the same dataset. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x / 4294967296;
  };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

/** The raw spans of one trace (what a client would send to POST /tracing/spans/ingest). */
function traceSpans(r: () => number, shape: DatasetShape, startUs: number): RawSpan[] {
  const trace_id = randomBytes(16).toString('hex');
  const id = (): string => randomBytes(8).toString('hex');
  const root = id();
  const failed = r() < 0.03;
  const session = `session-${Math.floor(r() * shape.sessions)}`;
  const user = `user-${Math.floor(r() * shape.users)}`;
  const question = pick(r, QUESTIONS);
  const app = pick(r, APPS);
  const env = pick(r, ENVS);
  const spans: RawSpan[] = [];
  let t = startUs + 1_000;
  const child = (parent: string, name: string, type: string, durMs: number, attributes: RawSpan['attributes'], extra: Partial<RawSpan> = {}): string => {
    const span_id = id();
    spans.push({ trace_id, span_id, parent_id: parent, span_name: name, span_type: type, start_time: t, end_time: t + Math.round(durMs * 1000), attributes, ...extra });
    t += Math.round(durMs * 1000) + 500;
    return span_id;
  };
  const llm = (parent: string, name: string): void => {
    const model = pick(r, MODELS);
    const prompt = Math.round(200 + r() * 1800);
    const completion = Math.round(20 + r() * 600);
    child(parent, name, 'chat', 300 + r() * 4000, {
      ag: {
        meta: { request: { model, temperature: 0.2 }, system: model.startsWith('gpt') ? 'openai' : 'other' },
        data: {
          inputs: { prompt: [{ role: 'system', content: 'You are a helpful assistant for our customers.' }, { role: 'user', content: question }] },
          outputs: { completion: [{ role: 'assistant', content: `Here is what I found about: ${question.slice(0, 60)}` }] },
        },
        metrics: { unit: { tokens: { prompt, completion, total: prompt + completion }, costs: { total: (prompt * 2.5 + completion * 10) / 1e6 } } },
      },
    });
  };
  // Children first; the root is added last, when its end time is known.
  t = startUs + 2_000;
  child(root, 'plan', 'task', 5 + r() * 20, { ag: { data: { inputs: { question } } } });
  child(root, 'retrieve', 'retriever', 40 + r() * 200, { ag: { data: { inputs: { query: question }, outputs: { documents: ['kb/123', 'kb/456', 'kb/789'] } } } });
  child(root, 'embed', 'embedding', 20 + r() * 60, { ag: { meta: { request: { model: 'text-embedding-3-small' } } } });
  llm(root, 'chat');
  const tools = child(root, 'tools', 'task', 1, {});
  const tool = pick(r, TOOLS);
  child(tools, tool, 'tool', 50 + r() * 500, { ag: { data: { inputs: { name: tool, args: { q: question.slice(0, 20) } }, outputs: { ok: !failed } } } });
  child(tools, 'format', 'tool', 1 + r() * 5, { ag: { data: { outputs: { ok: true } } } });
  llm(root, 'chat');
  llm(root, 'reflect');
  spans.unshift({
    trace_id, span_id: root, span_name: 'agent', span_type: 'workflow', start_time: startUs, end_time: t,
    ...(failed ? { status_code: 'STATUS_CODE_ERROR', status_message: 'tool call failed' } : {}),
    attributes: {
      ag: {
        session: { id: session }, user: { id: user },
        meta: { app, env, version: `v${1 + Math.floor(r() * 5)}` },
        data: { inputs: { question }, outputs: failed ? {} : { answer: `An answer to: ${question}` } },
      },
      tags: { customer_tier: pick(r, ['free', 'pro', 'enterprise']), escalated: r() < 0.1, feedback: r() < 0.2 ? pick(r, ['up', 'down']) : null },
    },
    ...(failed ? { events: [{ name: 'exception', timestamp: t, attributes: { 'exception.type': 'ToolError', 'exception.message': 'upstream timeout' } }] } : {}),
  });
  return spans;
}

/**
 * Writes `shape.traces` traces for `projectId`, in chunks, through the projector's own code.
 * `onProgress(spansWritten)` after each chunk.
 */
export async function loadDataset(ch: Clickhouse, projectId: string, shape: DatasetShape, onProgress: (spans: number) => void): Promise<number> {
  const r = rng(42);
  const tables = spanTables();
  const startUs = shape.endUs - shape.days * DAY_US;
  const stepUs = (shape.days * DAY_US) / shape.traces;
  const CHUNK = 5_000;
  let written = 0;
  let version = 1n;
  for (let first = 0; first < shape.traces; first += CHUNK) {
    const raw: RawSpan[] = [];
    for (let i = first; i < Math.min(shape.traces, first + CHUNK); i++) {
      // Evenly spread with jitter; the last trace still starts well before endUs.
      raw.push(...traceSpans(r, shape, Math.floor(startUs + i * stepUs + r() * stepUs * 0.5)));
    }
    const normalized = normalizeBatch(raw);
    if (normalized.rejected.length) throw new Error(`generator produced invalid spans: ${JSON.stringify(normalized.rejected[0])}`);
    const rows: SpanRow[] = [];
    const createdUs = Date.now() * 1000;
    for (const [traceId, spans] of groupByTrace(normalized.spans)) {
      const event: DecodedEvent<'tracing.spans.upserted'> = {
        eventId: traceId, type: 'tracing.spans.upserted', schemaVersion: 1, projectId, organizationId: '', timeUs: createdUs,
        requestId: '', actorId: '', aggregateId: traceId, expectedVersion: 0, payload: { trace_id: traceId, spans },
      };
      for (const row of applyTraceEvent(new Map(), event, version++).writes) rows.push(row);
    }
    await insertSpanRows(ch, tables, rows);
    written += rows.length;
    onProgress(written);
  }
  return written;
}
