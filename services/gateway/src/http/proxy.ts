// Streams a request to an upstream base URL and the answer back, untouched (bodies are not parsed,
// so OTLP size limits and protobuf bodies behave exactly as on the upstream).
// Several base URLs (replicas of one side) take requests in turn; a replica that refuses the
// connection is skipped for this request. The body is read only once a connection is open, so a
// refused attempt has consumed nothing and the next replica gets the request whole.
import http from 'node:http';
import type { Request, RequestHandler, Response } from 'express';

const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host']);

/** Errors raised before the upstream accepted the connection: nothing was sent, another replica may serve it. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);

export function proxyTo(baseUrls: string | readonly string[]): RequestHandler {
  const bases = (typeof baseUrls === 'string' ? [baseUrls] : baseUrls).map((u) => new URL(u));
  if (bases.length === 0) throw new Error('proxyTo needs at least one upstream URL');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;
  return (req: Request, res: Response) => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k) && v !== undefined) headers[k] = v;
    if (req.headers['transfer-encoding']) headers['transfer-encoding'] = req.headers['transfer-encoding'];
    headers['x-request-id'] = req.id;
    const first = next;
    next = (next + 1) % bases.length;
    const attempt = (tried: number): void => {
      const base = bases[(first + tried) % bases.length]!;
      let connected = false;
      const up = http.request({ protocol: base.protocol, hostname: base.hostname, port: base.port, method: req.method, path: req.url, headers, agent }, (ur) => {
        const out: http.OutgoingHttpHeaders = {};
        for (const [k, v] of Object.entries(ur.headers)) if (!HOP.has(k) && v !== undefined) out[k] = v;
        res.writeHead(ur.statusCode ?? 502, out);
        ur.pipe(res);
      });
      const send = (): void => { connected = true; req.pipe(up); };
      up.on('socket', (s) => { if (s.connecting) s.once('connect', send); else send(); });
      up.on('error', (err: NodeJS.ErrnoException) => {
        if (!connected && NOT_CONNECTED.has(err.code ?? '') && tried + 1 < bases.length) {
          req.log.warn({ err, upstream: base.href }, 'upstream refused the connection; trying the next replica');
          attempt(tried + 1);
          return;
        }
        req.log.error({ err, upstream: base.href }, 'upstream unavailable');
        if (!res.headersSent) res.status(503).setHeader('Retry-After', '1').json({ detail: 'Upstream service unavailable.' });
        else res.destroy();
      });
    };
    attempt(0);
  };
}
