// GET /openapi.json on the all-in-one base URL and through the gateway of a split deployment, and
// the document it serves checked by a maintained OpenAPI 3.1 validator.
import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteId } from '@llm/contracts';
import { createReadiness, listen, type RunningServer } from '@llm/http';
import { createLogger } from '@llm/logging';
import { createGateway } from '@llm/service-gateway';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let gateway: RunningServer;
let gatewayUrl: string;

beforeAll(async () => {
  t = await startTestApp();
  // Every side upstream is the all-in-one app: what matters is that the gateway's table forwards these routes.
  const app = createGateway({ command: t.baseUrl, query: t.baseUrl, projector: t.baseUrl }, createLogger({ name: 'gw', level: 'silent' }), createReadiness());
  gateway = await listen(app, 0, '127.0.0.1');
  gatewayUrl = `http://127.0.0.1:${gateway.port}`;
});
afterAll(async () => {
  await gateway?.close(0);
  await t?.stop();
});

interface Doc { openapi: string; paths: Record<string, Record<string, { operationId: string }>> }

describe('GET /openapi.json', () => {
  it('when fetched from the base URL without credentials, then it is a valid OpenAPI 3.1 document', async () => {
    const res = await fetch(`${t.baseUrl}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = await res.json() as Doc;
    expect(doc.openapi).toMatch(/^3\.1\./);
    const result = await validate(structuredClone(doc) as never, { validate: { errors: { colorize: false } } });
    expect(result.valid ? '' : compileErrors(result)).toBe('');
  });

  it('when the served document is read, then every route of the table has its operation', async () => {
    const doc = await (await fetch(`${t.baseUrl}/api/openapi.json`)).json() as Doc;
    const served = new Set(Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId)));
    expect((Object.keys(ROUTES) as RouteId[]).filter((id) => !served.has(id))).toEqual([]);
  });

  it('when fetched through the gateway, then the same document and docs page are served', async () => {
    const direct = await (await fetch(`${t.baseUrl}/openapi.json`)).text();
    const res = await fetch(`${gatewayUrl}/openapi.json`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(direct);
    const page = await fetch(`${gatewayUrl}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui-bundle.js');
  });

  it('when an asset the docs page does not use is asked for, then it is 404 and no file is read', async () => {
    for (const name of ['package.json', '..%2F..%2Fpackage.json', 'index.html', 'swagger-ui-bundle.js.map']) {
      const res = await fetch(`${t.baseUrl}/docs/assets/${name}`);
      expect(res.status, name).toBe(404);
    }
    const css = await fetch(`${t.baseUrl}/docs/assets/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });
});
