// Sessions and users: distinct ag.session.id / ag.user.id of the project's spans, paged by a
// stable (first_active, id) cursor, or by last activity with `realtime` (less stable: an id can
// move between pages as new spans arrive).
import type { Request, RequestHandler } from 'express';
import type { z } from 'zod';
import { ActivityQuerySchema, DEFAULT_LIMIT, decodeCursor, encodeCursor } from '@llm/span-filter';
import { RequestValidationError, type Handlers, type Guards } from '@llm/http';
import type { ActivitySearcher } from '../adapters/activity-search.ts';

const body = ActivityQuerySchema;

function validationError(err: z.ZodError): RequestValidationError {
  return new RequestValidationError(err.issues.map((i) => ({ loc: ['body', ...i.path.map(String)], msg: i.message, type: i.code })));
}

export function activityRoutes(deps: { reader: ActivitySearcher }, guards: Guards<'auth'>): Handlers {
  const { reader } = deps;
  const handler = (kind: 'session' | 'user'): RequestHandler => async (req: Request, res) => {
    const b = body.safeParse(req.body ?? {});
    if (!b.success) throw validationError(b.error);
    const w = b.data.windowing ?? {};
    let after: { t: number; id: string } | undefined;
    if (w.next) {
      const c = decodeCursor(w.next);
      if (!c.ok) throw new RequestValidationError([{ loc: ['body', 'windowing', 'next'], msg: c.error, type: 'value_error' }]);
      after = c.value;
    }
    if (w.oldest != null && w.newest != null && w.newest <= w.oldest) {
      throw new RequestValidationError([{ loc: ['body', 'windowing', 'newest'], msg: 'newest must be later than oldest', type: 'value_error' }]);
    }
    const limit = w.limit ?? DEFAULT_LIMIT;
    const order = w.order ?? 'descending';
    const rows = await reader.activity({
      projectId: req.scope.projectId, kind, realtime: b.data.realtime ?? false, order, limit, after,
      ...(w.oldest != null ? { oldestUs: w.oldest } : {}), ...(w.newest != null ? { newestUs: w.newest } : {}),
    });
    const page = rows.slice(0, limit);
    const out: Record<string, unknown> = { count: page.length, [`${kind}_ids`]: page.map((r) => r.id) };
    const last = page[page.length - 1];
    if (rows.length > limit && last) out.windowing = { limit, order, next: encodeCursor({ t: Number(last.activity_us), id: last.id }) };
    res.json(out);
  };
  return {
    'spans.sessions.query': [...guards.auth, handler('session')],
    'spans.users.query': [...guards.auth, handler('user')],
    'tracing.sessions.query': [...guards.auth, handler('session')],
    'tracing.users.query': [...guards.auth, handler('user')],
  };
}
