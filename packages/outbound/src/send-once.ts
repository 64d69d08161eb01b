// One HTTP exchange to already-vetted addresses: no redirects, no retries, bounded in time and
// size. The socket reaches only `addresses` (our `lookup` answers with them), while the Host header
// and TLS SNI/certificate check keep the URL's host name.
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { OutboundError } from './outbound-error.ts';
import type { Target } from './target-url.ts';

export interface HopRequest {
  readonly target: Target;
  readonly addresses: readonly string[];
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | undefined;
  readonly connectTimeoutMs: number;
  readonly maxBytes: number;
  /** Aborted on the overall deadline (reason: an OutboundError) or by the caller. */
  readonly signal: AbortSignal;
  readonly ca: string | Buffer | ReadonlyArray<string | Buffer> | undefined;
}

export interface HopResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** Node's `lookup` hook, answered from the vetted list: the pin against DNS rebinding. */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    const list = addresses.map((address) => ({ address, family: isIP(address) })).filter((a) => wanted === undefined || a.family === wanted);
    const first = list[0];
    if (!first) {
      const err: NodeJS.ErrnoException = new Error(`no vetted IPv${wanted ?? ''} address for ${hostname}`);
      err.code = 'ENOTFOUND';
      callback(err, '', 0);
    } else if (options.all) callback(null, list);
    else callback(null, first.address, first.family);
  };
}

export function sendOnce(req: HopRequest): Promise<HopResponse> {
  const { target } = req;
  const secure = target.url.protocol === 'https:';
  const headers: Record<string, string> = { ...req.headers, host: target.url.host };
  if (req.body) headers['content-length'] = String(req.body.byteLength);
  const options: https.RequestOptions = {
    method: req.method,
    hostname: target.hostname,
    port: target.port,
    path: `${target.url.pathname}${target.url.search}`,
    headers,
    agent: false, // a fresh connection per hop: nothing pooled outlives the check that vetted it
    lookup: pinnedLookup(req.addresses),
    ...(secure && target.literal === undefined && { servername: target.hostname }),
    ...(secure && req.ca !== undefined && { ca: req.ca as string | Buffer | Array<string | Buffer> }),
  };

  return new Promise<HopResponse>((resolve, reject) => {
    let settled = false;
    let connectTimer: NodeJS.Timeout | undefined;
    const finish = (err: unknown, value?: HopResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      req.signal.removeEventListener('abort', onAbort);
      if (value) resolve(value);
      else {
        request.destroy();
        reject(err);
      }
    };
    const onAbort = (): void => finish(req.signal.reason);

    const request = (secure ? https : http).request(options, (res) => {
      const status = res.statusCode ?? 0;
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > req.maxBytes) {
        finish(tooLarge(req.maxBytes, status));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        // Stop reading the moment the cap is crossed: a hostile server must not fill our memory.
        if (size > req.maxBytes) finish(tooLarge(req.maxBytes, status));
        else chunks.push(chunk);
      });
      res.on('end', () => finish(undefined, { status, statusText: res.statusMessage ?? '', headers: res.headers, body: Buffer.concat(chunks, size) }));
      res.on('error', (err) => finish(transport(err)));
      res.on('aborted', () => finish(new OutboundError('transport', 'The connection closed before the response was complete.')));
    });

    request.on('socket', (socket) => {
      if (!socket.connecting) return;
      connectTimer = setTimeout(
        () => finish(new OutboundError('timeout', `Could not connect to '${target.hostname}' within ${req.connectTimeoutMs} ms.`)),
        req.connectTimeoutMs,
      );
      socket.once('connect', () => clearTimeout(connectTimer));
    });
    request.on('error', (err) => finish(transport(err)));

    if (req.signal.aborted) {
      onAbort();
      return;
    }
    req.signal.addEventListener('abort', onAbort, { once: true });
    request.end(req.body);
  });
}

const tooLarge = (max: number, status: number): OutboundError =>
  new OutboundError('too_large', `The response exceeded the limit of ${max} bytes.`, { status });

function transport(err: unknown): OutboundError {
  if (err instanceof OutboundError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  return new OutboundError('transport', `The request failed${code ? ` (${code})` : ''}.`, { cause: err });
}
