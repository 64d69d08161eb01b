// Credentials never reach the logs: the redaction paths, checked on what pino actually writes.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  return { stream: new Writable({ write(c: Buffer, _e, cb) { chunks.push(c.toString()); cb(); } }), text: () => chunks.join('') };
}

describe('log redaction', () => {
  it('censors headers, tokens and vault values wherever they sit', () => {
    const out = capture();
    const log = createLogger({ name: 't' }, out.stream);
    const SECRET = 'do-not-log-me-7f3a';
    log.info({
      req: { headers: { authorization: `ApiKey ${SECRET}`, cookie: `s=${SECRET}` } },
      body: { provider: { key: SECRET, client_secret: SECRET }, secret: { content: SECRET }, password: SECRET, api_key: SECRET, token: SECRET },
      row: { sealed_data: SECRET, wrapped_key: SECRET, client_secret_sealed: SECRET },
      provider: { key: SECRET },
    }, 'request');
    const text = out.text();
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(SECRET);
  });
});
