// The real Agenta Python SDK against this backend, unchanged: `ag.init(host, api_key)`, instrumented
// functions exported over OTLP, and the scope lookup (`GET /projects/current`) behind
// `ag.tracing.get_trace_url()`. The SDK runs from the pinned venv `npm test` installs once
// (deploy/local/agenta-sdk.mjs); the trace is then read back through our API.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

// @ts-expect-error plain .mjs module without types
const { ensureAgentaSdk } = await import('../../deploy/local/agenta-sdk.mjs');

const run = promisify(execFile);
const script = path.join(import.meta.dirname, 'agenta-sdk', 'trace_and_read.py');

interface SdkOutput { trace_id: string; result: unknown; url: string; organization_id: string; workspace_id: string; project_id: string }
interface SpanOut { span_id: string; parent_id?: string; span_name: string; span_type: string; trace_type: string; attributes: { ag: { data: { inputs?: unknown; outputs?: unknown }; meta?: Record<string, unknown> } } }

describe('the Agenta Python SDK', () => {
  let app: TestApp;
  let acc: TestAccount;
  let python: string;

  beforeAll(async () => {
    // Normally already installed by the test command; idempotent here for direct vitest runs.
    python = ensureAgentaSdk({ log: () => {} }) as string;
    app = await startTestApp();
    acc = await createAccount(app.baseUrl, app.adminToken);
  }, 300_000);
  afterAll(async () => { await app?.stop(); });

  it('given an account, when GET /projects/current is called with its API key, then it names the project, workspace and organization', async () => {
    const res = await fetch(`${app.baseUrl}/api/projects/current`, { headers: acc.auth });
    expect(res.status).toBe(200);
    const body = await res.json() as Record<string, unknown>;
    expect(body).toMatchObject({ project_id: acc.projectId, organization_id: acc.organizationId, is_default_project: true, is_demo: false, user_role: 'owner' });
    expect(typeof body.workspace_id).toBe('string');
    expect(typeof body.project_name).toBe('string');
    expect(typeof body.workspace_name).toBe('string');
    expect(typeof body.organization_name).toBe('string');
    expect((await fetch(`${app.baseUrl}/projects/current`)).status).toBe(401);
  });

  it('given the SDK initialised with our host and a key, when an instrumented function runs, then its spans land as the SDK sent them and its scope resolves', async () => {
    const { stdout } = await run(python, [script, app.baseUrl, acc.apiKey], { timeout: 120_000, env: { ...process.env, AGENTA_LOG_LEVEL: 'error' } });
    const out = JSON.parse(stdout.trim().split('\n').pop()!) as SdkOutput;
    expect(out.result).toEqual({ capital: 'Paris' });
    // The scope came from GET /projects/current.
    expect(out).toMatchObject({ organization_id: acc.organizationId, project_id: acc.projectId });
    expect(out.url).toBe(`${app.baseUrl}/w/${out.workspace_id}/p/${acc.projectId}/observability?trace=${out.trace_id}`);

    const body = await eventually(
      async () => (await (await fetch(`${app.baseUrl}/spans/?trace_id=${out.trace_id}`, { headers: acc.auth })).json()) as { count: number; spans: SpanOut[] },
      (b) => b.count === 2,
      60_000,
    );
    const root = body.spans.find((s) => !s.parent_id)!;
    const child = body.spans.find((s) => s.parent_id)!;
    // Span types come from the SDK's ag.type.node (tracing §3.4); an invocation has no links.
    expect(root).toMatchObject({ span_name: 'answer', span_type: 'workflow', trace_type: 'invocation' });
    expect(child).toMatchObject({ span_name: 'lookup_capital', span_type: 'tool', trace_type: 'invocation', parent_id: root.span_id });
    expect(root.attributes.ag.data.inputs).toEqual({ country: 'France' });
    expect(root.attributes.ag.data.outputs).toEqual({ capital: 'Paris' });
    expect(root.attributes.ag.meta).toMatchObject({ purpose: 'sdk-e2e' });
    // The SDK wraps a scalar return value as {__default__: …}; it is stored as sent.
    expect(child.attributes.ag.data).toMatchObject({ inputs: { country: 'France' }, outputs: { __default__: 'Paris' } });

    // Another project's key sees nothing of it.
    const other = await createAccount(app.baseUrl, app.adminToken);
    const theirs = await (await fetch(`${app.baseUrl}/spans/?trace_id=${out.trace_id}`, { headers: other.auth })).json() as { count: number };
    expect(theirs.count).toBe(0);
  }, 180_000);
});
