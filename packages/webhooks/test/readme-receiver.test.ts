// The documented receiver example (test/fixtures/readme-receiver.mjs, copied verbatim into
// docs/architecture.md), run as its own Node process and sent real deliveries: a correctly signed one is
// accepted, a wrong secret or a tampered body is not. Proves the documentation alone suffices.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient } from '@llm/outbound';
import { prepareDelivery } from '../src/outbound-request.ts';
import { sendDelivery } from '../src/send.ts';
import { signatureHeader } from '../src/signature.ts';
import { closedPort } from './support/receiver.ts';

const FILE = path.join(import.meta.dirname, 'fixtures', 'readme-receiver.mjs');
const SECRET = 'Zx9kQ2mN7pR4sT8vW1yB3cD5fG6hJ0aL';
let port: number;
let child: ChildProcess;
let stdout = '';

async function waitForListening(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const r = request({ host: '127.0.0.1', port, method: 'POST' }, (res) => { res.resume(); resolve(true); });
      r.on('error', () => resolve(false));
      r.end();
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`receiver did not start: ${stdout}`);
}

beforeAll(async () => {
  port = await closedPort();
  child = spawn(process.execPath, [FILE], { env: { ...process.env, WEBHOOK_SECRET: SECRET, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (c: Buffer) => { stdout += c.toString('utf8'); });
  child.stderr!.on('data', (c: Buffer) => { stdout += c.toString('utf8'); });
  await waitForListening();
});

afterAll(() => {
  child.kill();
});

describe('documented receiver example', () => {
  it('is at most 15 lines, and docs/architecture.md shows exactly this file', () => {
    const code = readFileSync(FILE, 'utf8');
    expect(code.trimEnd().split('\n').length).toBeLessThanOrEqual(15);
    expect(readFileSync(path.join(import.meta.dirname, '..', '..', '..', 'docs', 'architecture.md'), 'utf8')).toContain(`\`\`\`js\n${code}\`\`\``);
  });

  const client = (): ReturnType<typeof createOutboundClient> => createOutboundClient({ allowInsecure: true, allowPrivateHosts: [`127.0.0.1:${port}`] });
  const prepared = (payload_fields?: unknown): ReturnType<typeof prepareDelivery> => prepareDelivery({
    deliveryId: '9ee5e94c-9bee-5093-81c2-ef8a0eb2ac3a',
    event: { event_id: '0190a5b2-7c3e-7a10-8000-000000000001', event_type: 'webhooks.subscriptions.tested', timestamp: new Date().toISOString(), created_at: new Date().toISOString(), attributes: { note: 'naïve 😀 </script>' } },
    subscription: { id: 'draft', url: `http://127.0.0.1:${port}/hook`, auth_mode: 'signature', payload_fields },
    projectId: 'p1',
  });

  it('when a real delivery is signed with the secret, then the receiver accepts it', async () => {
    const outcome = await sendDelivery(client(), prepared(), { mode: 'signature', secret: SECRET }, { timeoutMs: 5000 });
    expect(outcome.kind).toBe('success');
    expect(outcome.status.code).toBe('200');
    await expect.poll(() => stdout).toContain('9ee5e94c-9bee-5093-81c2-ef8a0eb2ac3a webhooks.subscriptions.tested');
  });

  it('when signed with another secret, then the receiver refuses it (401, a failed delivery)', async () => {
    const outcome = await sendDelivery(client(), prepared(), { mode: 'signature', secret: 'not-the-secret' }, { timeoutMs: 5000 });
    expect(outcome.kind).toBe('failed');
    expect(outcome.status.code).toBe('401');
  });

  it('when the body is altered or the timestamp is old, then the receiver refuses it', async () => {
    const p = prepared({ kind: '$.event.event_type' });
    const t = Math.floor(Date.now() / 1000);
    const post = (body: string, signature: string): Promise<number> => new Promise((resolve, reject) => {
      const r = request({ host: '127.0.0.1', port, method: 'POST', headers: { 'x-agenta-signature': signature } }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
      r.on('error', reject);
      r.end(body);
    });
    expect(await post(p.body, signatureHeader(SECRET, p.body, t))).toBe(200);
    expect(await post(p.body.replace('tested', 'testeD'), signatureHeader(SECRET, p.body, t))).toBe(401);
    expect(await post(p.body, signatureHeader(SECRET, p.body, t - 3600))).toBe(401);
    expect(await post(p.body, 'garbage')).toBe(401);
  });
});
