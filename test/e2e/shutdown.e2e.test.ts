// Shutdown drains (all-in-one, in-process): readiness turns 503 at once, requests are still served
// through the drain window, and account writes — which answer only once their event is projected —
// finish with their normal answer, because the projectors and the producer stop after HTTP has drained.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/test-app.ts';

const DRAIN_MS = 1_500;

function accountWrite(baseUrl: string, adminToken: string): Promise<{ status: number; connection: string | null; key?: string }> {
  const email = `${randomBytes(6).toString('hex')}@test.example.com`;
  return fetch(`${baseUrl}/admin/simple/accounts/`, {
    method: 'POST',
    headers: { Authorization: `Access ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ accounts: { u: { user: { email }, options: { create_api_keys: true, return_api_keys: true, seed_defaults: false } } } }),
  }).then(async (r) => {
    const body = (await r.json()) as { accounts?: { u?: { api_keys?: { key?: string } } } };
    return { status: r.status, connection: r.headers.get('connection'), key: body.accounts?.u?.api_keys?.key };
  });
}

describe('shutdown', () => {
  it('when the app stops with account writes in flight and arriving during the drain window, then /readyz is 503 at once and every write gets its normal answer', async () => {
    const t = await startTestApp({ SHUTDOWN_DRAIN_MS: String(DRAIN_MS) });
    expect((await fetch(`${t.managementUrl}/readyz`)).status).toBe(200);

    const early = Array.from({ length: 4 }, () => accountWrite(t.baseUrl, t.adminToken));
    const t0 = Date.now();
    let stopped = false;
    const stopping = t.stop().then(() => { stopped = true; });

    const ready = await fetch(`${t.managementUrl}/readyz`);
    expect(ready.status).toBe(503);
    // Late in the window: these are still being projected when the server stops accepting.
    await new Promise((r) => setTimeout(r, Math.max(0, DRAIN_MS - 300 - (Date.now() - t0))));
    const late = Array.from({ length: 4 }, () => accountWrite(t.baseUrl, t.adminToken));

    const answers = await Promise.all([...early, ...late]);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.key).toMatch(/\S{16,}/);
    }
    // Answers given during the drain close their connection: clients reconnect elsewhere.
    expect(answers.slice(4).every((a) => a.connection === 'close')).toBe(true);
    await stopping;
    expect(stopped).toBe(true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(DRAIN_MS - 50);
    await expect(fetch(`${t.baseUrl}/health`)).rejects.toThrow();
    await expect(fetch(`${t.managementUrl}/healthz`)).rejects.toThrow();
  });
});
