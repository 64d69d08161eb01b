// One presentation of rejections (issue 27): every code of every aggregate is declared once, with
// one HTTP answer, and the answer a client gets is that one — through the real error handler. No
// route answers a rejection code its own way (the source scan below fails on a new override).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { AGGREGATES, COMMON_REJECTIONS, REJECTION_PRESENTATIONS, kindOf, reject, rejectionError, type Presentation, type RejectionCode } from '@llm/account-model';
import { errorHandler, statusOf } from '@llm/http';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Every declaration of every code: the common table and each aggregate's. */
function declarations(): Map<string, Array<{ owner: string; presentation: Presentation }>> {
  const out = new Map<string, Array<{ owner: string; presentation: Presentation }>>();
  const tables: Array<[string, Record<string, Presentation>]> = [
    ['common', COMMON_REJECTIONS],
    ...Object.entries(AGGREGATES).map(([name, a]) => [name, a.rejections as Record<string, Presentation>] as [string, Record<string, Presentation>]),
  ];
  for (const [owner, table] of tables) {
    for (const [code, presentation] of Object.entries(table)) out.set(code, [...(out.get(code) ?? []), { owner, presentation }]);
  }
  return out;
}

/** The status and body the real error handler answers for an error on a client path. */
function answer(err: unknown, reqPath = '/api/anything'): { status: number; body: unknown } {
  let status = 0;
  let body: unknown;
  const res = {
    headersSent: false, locals: {} as Record<string, unknown>,
    setHeader: () => res,
    status(s: number) { status = s; return res; },
    json(b: unknown) { body = b; return res; },
  };
  errorHandler()(err, { path: reqPath, header: () => undefined } as unknown as Request, res as unknown as Response, () => undefined);
  return { status, body };
}

describe('rejection presentations', () => {
  it('declares every code once: an aggregate does not re-declare another one\'s code with another answer', () => {
    const twice = [...declarations()].filter(([, ds]) => new Set(ds.map((d) => JSON.stringify(d.presentation))).size > 1);
    expect(twice.map(([code, ds]) => `${code}: ${ds.map((d) => `${d.owner}=${JSON.stringify(d.presentation)}`).join(', ')}`)).toEqual([]);
    // The registry's table is the union of the declarations.
    expect(new Set(Object.keys(REJECTION_PRESENTATIONS))).toEqual(new Set(declarations().keys()));
  });

  it('walks every code of every aggregate through rejectionError and the error handler: one status, one body shape', () => {
    const codes = Object.keys(REJECTION_PRESENTATIONS) as RejectionCode[];
    expect(codes.length).toBeGreaterThan(100);
    for (const code of codes) {
      const p = REJECTION_PRESENTATIONS[code];
      const { status, body } = answer(rejectionError(reject(code, `text of ${code}`, { slug: 's1' })));
      expect(status, code).toBe(statusOf(kindOf(p)));
      if (code === 'unstorable') {
        expect(body, code).toEqual({ detail: [{ loc: ['body'], msg: `The change cannot be stored: text of ${code}`, type: 'unstorable_input' }] });
      } else if (kindOf(p) === 'unprocessable') {
        expect(body, code).toEqual({ detail: [{ loc: ['body'], msg: `text of ${code}`, type: code }] });
      } else if (typeof p === 'string') {
        expect(body, code).toEqual({ detail: `text of ${code}`, slug: 's1' });
      } else if (p.body === 'error_and_message') {
        expect(body, code).toEqual({ detail: { message: `text of ${code}`, error: code } });
      } else if (p.body === 'conflict') {
        expect(body, code).toEqual({ detail: { message: `text of ${code}`, conflict: { slug: 's1' } } });
      } else {
        expect(body, code).toEqual({ detail: { message: `text of ${code}`, slug: 's1' } });
      }
    }
  });

  it('answers the reference\'s own bodies where it has them: invitations 400/409/410, slug conflicts 409 with the slug, the owner 403', () => {
    expect(answer(rejectionError(reject('invitation_not_found', 'Invitation does not exist.')))).toEqual({ status: 400, body: { detail: { message: 'Invitation does not exist.', error: 'invitation_not_found' } } });
    expect(answer(rejectionError(reject('invitation_accepted', 'Invitation has already been accepted.')))).toEqual({ status: 409, body: { detail: 'Invitation has already been accepted.' } });
    expect(answer(rejectionError(reject('invitation_expired', 'Invitation has expired.')))).toEqual({ status: 410, body: { detail: 'Invitation has expired.' } });
    expect(answer(rejectionError(reject('query_slug_exists', 'taken', { slug: 'a' })))).toEqual({ status: 409, body: { detail: { message: 'taken', conflict: { slug: 'a' } } } });
    expect(answer(rejectionError(reject('owner_not_removable', 'no')))).toEqual({ status: 403, body: { detail: { message: 'no' } } });
    // Operator paths nest every message (the reference's admin shape), whatever the code.
    expect(answer(rejectionError(reject('workspace_kept', 'kept', { ref: 'w' })), '/admin/workspaces/w')).toEqual({ status: 400, body: { detail: { message: 'kept', ref: 'w' } } });
  });

  it('no route answers a rejection code its own way (the billing processor\'s webhook answers the processor, in its protocol)', () => {
    const codes = new Set(Object.keys(REJECTION_PRESENTATIONS));
    const dir = path.resolve(here, '../src');
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    const overrides: string[] = [];
    for (const f of files) {
      const text = readFileSync(path.join(dir, f), 'utf8');
      for (const m of text.matchAll(/\.code === '([a-z_]+)'/g)) {
        if (codes.has(m[1]!) && !f.endsWith('billing-events-routes.ts') && !f.endsWith('account-commands.ts')) overrides.push(`${f}: ${m[1]}`);
      }
      for (const m of text.matchAll(/(?:invalid|notFound|conflict)\('([a-z_]+)'/g)) if (codes.has(m[1]!)) overrides.push(`${f}: ${m[1]} thrown without its presentation`);
    }
    expect(overrides).toEqual([]);
  });
});
