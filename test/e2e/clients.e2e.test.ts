// The typed client (@llm/client) against a real stack, and every snippet of docs/clients.md run as
// written: the blocks are read out of the page, run by their own runtime (Python from the pinned
// Agenta SDK venv, which also holds the OpenTelemetry SDK; Node for JavaScript and TypeScript), and
// the trace each one writes is read back through the typed client with its attributes.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '@llm/client';
import { eventually } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

// @ts-expect-error plain .mjs module without types
const { ensureAgentaSdk } = await import('../../deploy/local/agenta-sdk.mjs');

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const DOC = readFileSync(path.join(repoRoot, 'docs', 'clients.md'), 'utf8');

/** The fenced block that follows `<!-- snippet: name -->` in docs/clients.md. */
function snippet(name: string): string {
  const m = new RegExp(`<!-- snippet: ${name} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``).exec(DOC);
  if (!m) throw new Error(`docs/clients.md has no snippet '${name}'`);
  return `${m[1]!}\n`;
}

/** The trace id a snippet printed (its last line of 32 hex digits; an SDK may log around it). */
function lastLine(out: string): string {
  const id = out.split('\n').map((l) => l.trim()).filter((l) => /^[0-9a-f]{32}$/.test(l)).pop();
  if (!id) throw new Error(`no trace id in the snippet's output: ${out.slice(-500)}`);
  return id;
}

interface SpanNode { span_name: string; attributes?: Record<string, unknown>; spans?: Record<string, SpanNode> }

let app: TestApp;
let admin: ApiClient;
let api: ApiClient;
let apiKey: string;
let python: string;
// Snippets run from a folder inside the repository, so their imports resolve to its node_modules.
const dir = path.join(repoRoot, '.data', 'tmp', `clients-${randomBytes(4).toString('hex')}`);

beforeAll(async () => {
  // Normally already installed by the test command; idempotent here for direct vitest runs.
  python = ensureAgentaSdk({ log: () => {} }) as string;
  app = await startTestApp();
  mkdirSync(dir, { recursive: true });
}, 300_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await app?.stop();
});

/** The trace as GET /traces/{trace_id} answers it, once projected. */
async function readTrace(traceId: string): Promise<Record<string, SpanNode>> {
  const body = await eventually(
    async () => (await api.GET('/traces/{trace_id}', { params: { path: { trace_id: traceId } } })).data,
    (b) => (b?.count ?? 0) > 0,
    60_000,
  );
  return (body!.trace as { spans: Record<string, SpanNode> }).spans;
}

const env = (): NodeJS.ProcessEnv => ({
  ...process.env, LLM_BASE_URL: app.baseUrl, LLM_API_KEY: apiKey, AGENTA_LOG_LEVEL: 'error',
  PATH: `${path.join(repoRoot, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}`,
});

describe('the typed client', () => {
  it('when an account is provisioned with the operator token through the client, then its API key writes a trace that reads back with its attributes', async () => {
    admin = createApiClient({ baseUrl: app.baseUrl, adminToken: app.adminToken });
    const email = `${randomBytes(6).toString('hex')}@clients.example.com`;
    const created = await admin.POST('/admin/simple/accounts', {
      body: { accounts: { me: { user: { email }, options: { create_api_keys: true, return_api_keys: true } } } },
    });
    expect(created.response.status).toBe(200);
    apiKey = created.data!.accounts.me!.api_keys!.key!;
    api = createApiClient({ baseUrl: app.baseUrl, apiKey });

    const project = await api.GET('/projects/current');
    expect(project.data?.project_id).toMatch(/^[0-9a-f-]{36}$/);

    const traceId = randomBytes(16).toString('hex');
    const written = await api.POST('/traces', {
      body: { trace: { trace_id: traceId, spans: { ask: { trace_id: traceId, span_id: randomBytes(8).toString('hex'), span_name: 'ask', attributes: { ag: { data: { inputs: { q: 'capital of France' } } } } } } } },
    });
    expect(written.response.status).toBe(202);
    const spans = await readTrace(traceId);
    expect(spans.ask!.attributes).toMatchObject({ ag: { data: { inputs: { q: 'capital of France' } } } });

    // A refusal is typed too: a key the deployment does not know is a 401 with a detail.
    const stranger = createApiClient({ baseUrl: app.baseUrl, apiKey: 'nope.nope' });
    const refused = await stranger.GET('/traces/{trace_id}', { params: { path: { trace_id: traceId } } });
    expect(refused.response.status).toBe(401);
    expect(refused.error).toHaveProperty('detail');
  });
});

describe('the snippets of docs/clients.md', () => {
  it('when the Python OpenTelemetry snippet runs, then its span reads back with its GenAI attributes', async () => {
    writeFileSync(path.join(dir, 'otel.py'), snippet('python-otel'));
    const { stdout } = await run(python, [path.join(dir, 'otel.py')], { cwd: dir, env: env(), timeout: 120_000 });
    const spans = await readTrace(lastLine(stdout));
    expect(spans.chat!.attributes).toMatchObject({ gen_ai: { usage: { input_tokens: 12 } } });
  }, 180_000);

  it('when the Agenta SDK snippet runs, then its instrumented function reads back with its outputs and meta', async () => {
    writeFileSync(path.join(dir, 'agenta_snippet.py'), snippet('python-agenta'));
    const { stdout } = await run(python, [path.join(dir, 'agenta_snippet.py')], { cwd: dir, env: env(), timeout: 120_000 });
    const spans = await readTrace(lastLine(stdout));
    expect(spans.answer!.attributes).toMatchObject({ ag: { data: { outputs: { answer: 'Paris' } }, meta: { purpose: 'docs' } } });
  }, 180_000);

  it('when the JavaScript client snippet is set up, type-checked and run, then its trace reads back with its attributes', async () => {
    const setup = snippet('js-client-setup').trim().split('\n');
    // The install line is the reader's; here the packages are the repository's own.
    expect(setup[0]).toBe('npm install openapi-fetch');
    for (const line of setup.slice(1)) await run('bash', ['-c', line], { cwd: dir, env: env(), timeout: 120_000 });
    writeFileSync(path.join(dir, 'trace.ts'), snippet('js-client'));
    // The snippet compiles against the types generated from the served document.
    await run(process.execPath, [
      path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext',
      '--moduleResolution', 'bundler', '--skipLibCheck', '--types', 'node', 'trace.ts',
    ], { cwd: dir, env: env(), timeout: 120_000 });
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'trace.ts'], { cwd: dir, env: env(), timeout: 120_000 });
    const lines = stdout.trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ spans: { chat: { span_name: 'chat' } } });
    const spans = await readTrace(lastLine(stdout));
    expect(spans.chat!.attributes).toMatchObject({ ag: { data: { outputs: { completion: 'Hi there' } } } });
  }, 180_000);

  it('when the JavaScript OpenTelemetry snippet runs, then its span reads back with its GenAI attributes', async () => {
    writeFileSync(path.join(dir, 'otel.mjs'), snippet('js-otel'));
    const { stdout } = await run(process.execPath, ['otel.mjs'], { cwd: dir, env: env(), timeout: 120_000 });
    const spans = await readTrace(lastLine(stdout));
    expect(spans.chat!.attributes).toMatchObject({ gen_ai: { usage: { input_tokens: 12 } } });
  }, 180_000);
});
