// Streams a request to an upstream base URL and the answer back, untouched (bodies are not parsed,
// so OTLP size limits and protobuf bodies behave exactly as on the upstream).
import http from 'node:http';
import type { Request, RequestHandler, Response } from 'express';

const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host']);

export function proxyTo(baseUrl: string): RequestHandler {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  return (req: Request, res: Response) => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k) && v !== undefined) headers[k] = v;
    if (req.headers['transfer-encoding']) headers['transfer-encoding'] = req.headers['transfer-encoding'];
    headers['x-request-id'] = req.id;
    const up = http.request({ protocol: base.protocol, hostname: base.hostname, port: base.port, method: req.method, path: req.url, headers, agent }, (ur) => {
      const out: http.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(ur.headers)) if (!HOP.has(k) && v !== undefined) out[k] = v;
      res.writeHead(ur.statusCode ?? 502, out);
      ur.pipe(res);
    });
    up.on('error', (err) => {
      req.log.error({ err, upstream: baseUrl }, 'upstream unavailable');
      if (!res.headersSent) res.status(503).setHeader('Retry-After', '1').json({ detail: 'Upstream service unavailable.' });
      else res.destroy();
    });
    req.pipe(up);
  };
}
