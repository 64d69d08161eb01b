// `POST /services/mock/v0/invoke` (reference evaluations §3.7): the `agenta:custom:mock:v0` workflow
// as a service, for clients that invoke workflows themselves. It is the same handler the evaluation
// worker runs in process (adapters/workflow-invoker.ts): the outcome of `parameters.key` on the
// inputs (and an application's outputs, for an evaluator), its trace written through the span
// pipeline under the caller's project, linked to the invocation it judges. A handler failure (key
// `error`) is an answer, not an HTTP error: `status.code` carries it, as the reference's services do.
import type { RequestHandler } from 'express';
import { workflowInvoke } from '@llm/contracts';
import { invalid } from '@llm/errors';
import { validate, type Guards, type Handlers } from '@llm/http';
import { MOCK_KEYS, MOCK_URI } from '../domain/mock-workflow.ts';
import type { WorkflowInvoker } from '../adapters/workflow-invoker.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface MockServiceRouteDeps {
  invoker: WorkflowInvoker;
}

export function mockServiceRoutes(deps: MockServiceRouteDeps, guards: Guards<'invoke'>): Handlers {
  const invoke: RequestHandler = async (req, res) => {
    const body = validate(workflowInvoke, req.body ?? {});
    const d = body.data ?? {};
    const revisionData = isObject(d.revision) && isObject(d.revision.data) ? d.revision.data : undefined;
    const parameters = d.parameters ?? (isObject(revisionData?.parameters) ? revisionData.parameters : undefined);
    const key = isObject(parameters) && typeof parameters.key === 'string' ? parameters.key : 'echo';
    if (!(MOCK_KEYS as readonly string[]).includes(key)) throw invalid('mock_key_unknown', `Unknown mock key "${key}": expected one of ${MOCK_KEYS.join(', ')}.`);
    const testcase = isObject(d.testcase) && isObject(d.testcase.data) ? d.testcase.data : undefined;
    const link = body.links?.invocation ?? d.trace ?? undefined;
    const evaluator = body.flags?.is_evaluator === true || link !== undefined;
    const out = await deps.invoker.mock(req, {
      role: evaluator ? 'evaluator' : 'application',
      data: { uri: MOCK_URI, ...(parameters ? { parameters } : {}) },
      flags: body.flags ?? undefined,
      references: body.references ?? {},
      testcase: testcase && isObject(d.testcase) && typeof d.testcase.id === 'string' ? { id: d.testcase.id, data: testcase } : undefined,
      inputs: d.inputs ?? testcase ?? {},
      upstream: link || d.outputs !== undefined ? { outputs: d.outputs, link } : undefined,
    });
    res.json({
      version: '2025.07.14', trace_id: out.traceId, span_id: out.spanId,
      status: out.ok ? { code: 200 } : out.error,
      ...(out.ok ? { data: { outputs: out.outputs ?? null } } : {}),
    });
  };
  return { 'services.mock.invoke': [...guards.invoke, invoke] };
}
