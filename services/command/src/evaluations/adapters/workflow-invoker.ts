// Invoking one workflow revision for a cell (reference evaluations §3.7). The body is the
// reference's (`{version, flags, data:{revision, parameters, testcase, inputs, trace?, outputs?},
// references, links}`); what answers it depends on the revision's data:
//   - `agenta:custom:mock:v0` without a `url`: the mock handler, in this process
//     (domain/mock-workflow.ts), its trace written through the span pipeline like any span —
//     the same handler `POST /services/mock/v0/invoke` serves (http/mock-service-routes.ts);
//   - a `url`: `POST <url>/invoke` through the outbound guard (private addresses refused unless
//     allowed), the reply's `{trace_id, span_id, status, data:{outputs}}` or `x-ag-*` headers;
//   - anything else is not served here: the cell fails with a 501 status naming the handler.
// A failure never throws: it is the cell's `failure` with the status as its error.
import { randomBytes } from 'node:crypto';
import { sleep } from '@llm/errors';
import type { OutboundClient } from '@llm/outbound';
import type { JsonObject, RawSpan } from '@llm/span-model';
import { MOCK_URI, runMock } from '../domain/mock-workflow.ts';
import type { Actor } from '../../actor.ts';
import type { TraceWrites } from '../../ingest/adapters/trace-writes.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface SpanLink { trace_id: string; span_id: string }

export interface Invocation {
  role: 'application' | 'evaluator';
  /** The revision's stored data: `{uri, url?, parameters?, schemas?, …}`. */
  data: Json | null;
  flags?: Json | undefined;
  /** The step's references (artifact, variant, revision) and the testcase's. */
  references: Record<string, unknown>;
  testcase: { id: string; data: Json } | undefined;
  inputs: Json;
  /** The application's outputs and trace, for an evaluator after an application. */
  upstream?: { outputs: unknown; link?: SpanLink | undefined } | undefined;
}

export interface InvocationResult {
  ok: boolean;
  traceId?: string | undefined;
  spanId?: string | undefined;
  outputs?: unknown;
  /** The answer's status when it is not a success (stored as the cell's error). */
  error?: Json | undefined;
}

/** The inputs a revision receives: the testcase's data without its dedup id, limited to `schemas.inputs.properties` when declared. */
export function invocationInputs(data: Json | null, testcase: Json): Json {
  const { testcase_dedup_id: _dedup, ...rest } = testcase;
  const props = isObject(data?.schemas) && isObject(data.schemas.inputs) && isObject(data.schemas.inputs.properties) ? Object.keys(data.schemas.inputs.properties) : undefined;
  return props ? Object.fromEntries(Object.entries(rest).filter(([k]) => props.includes(k))) : rest;
}

export interface WorkflowInvokerDeps {
  traces: TraceWrites;
  outbound: OutboundClient;
  /** The longest an external `/invoke` may take. */
  timeoutMs?: number;
}

export class WorkflowInvoker {
  constructor(private readonly deps: WorkflowInvokerDeps) {}

  async invoke(actor: Actor, inv: Invocation): Promise<InvocationResult> {
    const uri = typeof inv.data?.uri === 'string' ? inv.data.uri : undefined;
    const url = typeof inv.data?.url === 'string' && inv.data.url !== '' ? inv.data.url : undefined;
    try {
      if (url) return await this.remote(url, inv);
      if (uri === MOCK_URI) return await this.mock(actor, inv);
      return { ok: false, error: { code: 501, type: 'handler_not_served', message: `The handler ${uri ?? '(none)'} is not executed by this server: only ${MOCK_URI} and workflows with a url run server-side.` } };
    } catch (err) {
      return { ok: false, error: { code: 502, type: 'invocation_failed', message: err instanceof Error ? err.message.slice(0, 500) : 'The invocation failed.' } };
    }
  }

  /** The mock handler in process: its outcome, then its trace (a failed invocation has one too, with an error status). */
  async mock(actor: Actor, inv: Invocation): Promise<InvocationResult> {
    const started = new Date();
    const outcome = runMock({ parameters: inv.data?.parameters, inputs: inv.inputs, outputs: inv.upstream?.outputs });
    if (outcome.delayMs > 0) await sleep(outcome.delayMs);
    const span = invocationSpan(inv, started, new Date(), outcome.ok ? { outputs: outcome.outputs } : { error: outcome.status });
    await this.deps.traces.ingest(actor, [span]);
    return outcome.ok
      ? { ok: true, traceId: span.trace_id, spanId: span.span_id, outputs: outcome.outputs }
      : { ok: false, traceId: span.trace_id, spanId: span.span_id, error: outcome.status };
  }

  private async remote(url: string, inv: Invocation): Promise<InvocationResult> {
    const body = {
      version: '2025.07.14',
      ...(inv.flags ? { flags: inv.flags } : {}),
      data: {
        revision: inv.data, parameters: inv.data?.parameters ?? null, testcase: inv.testcase ?? null, inputs: inv.inputs,
        ...(inv.upstream?.link ? { trace: inv.upstream.link } : {}),
        ...(inv.upstream ? { outputs: inv.upstream.outputs } : {}),
      },
      references: inv.references,
      ...(inv.upstream?.link ? { links: { invocation: inv.upstream.link } } : {}),
    };
    const res = await this.deps.outbound.request(`${url.replace(/\/+$/, '')}/invoke`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), timeoutMs: this.deps.timeoutMs ?? 30_000,
    });
    let reply: unknown;
    try { reply = JSON.parse(res.body.toString('utf8')); } catch { reply = undefined; }
    const r = isObject(reply) ? reply : {};
    const header = (name: string): string | undefined => { const v = res.headers[name]; return typeof v === 'string' ? v : undefined; };
    const traceId = typeof r.trace_id === 'string' ? r.trace_id : header('x-ag-trace-id');
    const spanId = typeof r.span_id === 'string' ? r.span_id : header('x-ag-span-id');
    const status = isObject(r.status) ? r.status : { code: res.status };
    const code = typeof status.code === 'number' ? status.code : res.status;
    if (res.status >= 300 || code !== 200) return { ok: false, traceId, spanId, error: { ...status, code } };
    return { ok: true, traceId, spanId, outputs: isObject(r.data) ? r.data.outputs : undefined };
  }
}

/** The invocation's root span (§3.7): `ag.data.inputs/outputs`, `ag.references`, an evaluator's link keyed `invocation`. */
export function invocationSpan(inv: Invocation, start: Date, end: Date, result: { outputs?: unknown; error?: Json }): RawSpan {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  const data: JsonObject = { inputs: inv.inputs as JsonObject };
  if (inv.data?.parameters !== undefined) data.parameters = inv.data.parameters as JsonObject;
  if (result.outputs !== undefined) data.outputs = result.outputs as JsonObject;
  const flags: JsonObject = inv.role === 'evaluator' ? { is_evaluator: true } : { is_application: true };
  const slug = (inv.references[inv.role] as { slug?: unknown } | undefined)?.slug;
  return {
    trace_id: traceId,
    span_id: spanId,
    span_name: typeof slug === 'string' && slug !== '' ? slug : inv.role,
    span_kind: 'SPAN_KIND_SERVER',
    span_type: 'workflow',
    start_time: start.toISOString(),
    end_time: end.toISOString(),
    ...(result.error ? { status_code: 'STATUS_CODE_ERROR', status_message: String(result.error.message ?? 'failed') } : { status_code: 'STATUS_CODE_OK' }),
    attributes: { ag: { type: { span: 'workflow' }, flags, data, references: inv.references as JsonObject } },
    links: inv.upstream?.link ? [{ ...inv.upstream.link, attributes: { key: 'invocation' } }] : [],
  };
}
