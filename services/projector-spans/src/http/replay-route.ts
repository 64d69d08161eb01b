// POST /admin/replay/spans (operator token): runs the replay inside the process that owns the span
// store and streams progress as NDJSON lines: {"done","total"} … then {"result"} or {"error"}.
// This is how `npm run replay -- spans` works against the embedded ClickHouse, which only one
// process can open.
import type { RequestHandler } from 'express';
import { invalid, conflict } from '@llm/errors';
import type { Handlers } from '@llm/http';
import { replaySpans, type ReplayDeps } from '../replay.ts';

export function replayRoutes(deps: Omit<ReplayDeps, 'onProgress'>, auth: RequestHandler): Handlers {
  let running = false;
  return {
    'admin.replay': [auth, async (req, res) => {
      if (req.params.model !== 'spans') throw invalid('unknown_read_model', `Unknown read model '${String(req.params.model)}'; known: spans.`);
      if (running) throw conflict('replay_running', 'A replay is already running.');
      running = true;
      res.status(200).type('application/x-ndjson');
      const line = (o: unknown): void => { res.write(`${JSON.stringify(o, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))}\n`); };
      let last = 0;
      try {
        const result = await replaySpans({
          ...deps,
          keepOld: req.query.keep_old === 'true',
          allowTruncated: req.query.allow_truncated === 'true',
          onProgress: (done, total) => {
            const now = Date.now();
            if (now - last > 200 || done === total) { last = now; line({ done, total }); }
          },
        });
        line({ result });
      } catch (err) {
        req.log.error({ err }, 'replay failed');
        line({ error: (err as Error).message });
      } finally {
        running = false;
        res.end();
      }
    }],
  };
}
