// GET /docs in a real headless Chromium (Debian's package, driven by playwright-core): the page
// loads its renderer from our own routes only, and every operation of the route table renders.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@llm/contracts';
import { openApiPath } from '@llm/openapi';
import { ensureChromium } from '../support/chromium.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const SCREENSHOT = path.resolve('.data/docs-page.png');
// Run in the page (strings: this project's TypeScript has no DOM types): each rendered operation as
// "METHOD /path", and whether it is marked deprecated.
const RENDERED_OPERATIONS = `[...document.querySelectorAll('.opblock')].map((e) => ({
  op: (e.querySelector('.opblock-summary-method')?.textContent ?? '?') + ' ' + (e.querySelector('[data-path]')?.getAttribute('data-path') ?? '?'),
  deprecated: e.classList.contains('opblock-deprecated'),
}))`;
let t: TestApp;
let browser: Browser;

beforeAll(async () => {
  const executablePath = ensureChromium();
  t = await startTestApp();
  // --no-sandbox: test runs are root, where Chromium's sandbox refuses to start.
  browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}, 900_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

describe('GET /docs', () => {
  it('when opened in a browser, then every operation renders, deprecated ones marked, with no request leaving this origin', { timeout: 180_000 }, async () => {
    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const problems: string[] = [];
    const foreign: string[] = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    page.on('request', (r) => { if (!r.url().startsWith(t.baseUrl) && !r.url().startsWith('data:')) foreign.push(r.url()); });

    const res = await page.goto(`${t.baseUrl}/docs`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    await page.waitForSelector('.opblock', { timeout: 60_000 });
    expect(await page.locator('.info .title').innerText()).toContain('LLM backend API');
    await page.screenshot({ path: SCREENSHOT });

    // Swagger UI renders only the operations near the viewport: scroll through the page and collect
    // each one rendered ("METHOD /path" as displayed, deprecated ones apart).
    const rendered = new Set<string>();
    const deprecated = new Set<string>();
    let lastY = -1;
    for (let step = 0; step < 500; step++) {
      const ops = await page.evaluate<Array<{ op: string; deprecated: boolean }>>(RENDERED_OPERATIONS);
      for (const o of ops) { rendered.add(o.op); if (o.deprecated) deprecated.add(o.op); }
      const y = await page.evaluate<number>('window.scrollBy(0, window.innerHeight / 2), window.scrollY');
      if (y === lastY) break;
      lastY = y;
      await page.waitForTimeout(250);
    }
    const routes = Object.values(ROUTES) as Array<{ method: string; path: string; deprecated?: boolean }>;
    const expected = routes.map((r) => `${r.method} ${openApiPath(r.path).path}`);
    expect(expected.filter((op) => !rendered.has(op))).toEqual([]);
    expect(rendered.size).toBe(expected.length);
    expect([...deprecated].sort()).toEqual(routes.filter((r) => r.deprecated).map((r) => `${r.method} ${openApiPath(r.path).path}`).sort());

    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
  });

  it('when opened with a trailing slash or under /api, then the page still finds its assets and document', async () => {
    for (const p of ['/docs/', '/api/docs']) {
      const page = await browser.newPage();
      const failed: string[] = [];
      page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
      await page.goto(`${t.baseUrl}${p}`, { waitUntil: 'load' });
      await page.waitForSelector('.opblock', { timeout: 60_000 });
      expect(failed, p).toEqual([]);
      await page.close();
    }
  });
});
