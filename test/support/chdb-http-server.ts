// ClickHouse's HTTP interface served over the embedded chDB engine, for tests of the split deployment:
// no ClickHouse server installs on this machine, yet the services' CLICKHOUSE_URL path (the real
// @clickhouse/client speaking HTTP to a server shared by several processes) has to run somewhere.
// It answers what @clickhouse/client sends for query, insert, command, exec and ping; what it leaves
// out compared with a real server is listed in docs/operations.md (, "The split deployment").
//
// One engine per process (libchdb binds one data directory per process), requests run one at a time:
// settings are applied with SET, which the engine keeps beyond the statement, so two requests with
// different settings must not overlap; query parameters bind per call.
import http from 'node:http';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { Session } from 'chdb';

/** What the engine's native call answers (the shape chdb's own Session wraps). */
interface NativeResult { bytes: Buffer; elapsed: number; rowsRead: number; bytesRead: number }
interface NativeAddon {
  QueryAsyncConnection(connection: unknown, sql: string, format: string, params?: Record<string, string>): Promise<NativeResult>;
}

// chdb's public queryBindAsync takes JS values and formats them itself; the HTTP interface hands us
// the values already in their text form (`param_x=…`, as the server parses them per declared type),
// and formatting them again would escape them twice. The native call takes that text form as is.
const requireHere = createRequire(import.meta.url);
const native = createRequire(requireHere.resolve('chdb'))('./dist/loader.js') as { loadNative(): NativeAddon };
const addon = native.loadNative();

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);

// URL parameters that are the HTTP layer's, not engine settings (a real server consumes them too).
const HTTP_PARAMS = new Set(['query', 'database', 'query_id', 'session_id', 'session_timeout', 'session_check', 'role', 'user', 'password',
  'default_format', 'compress', 'decompress', 'buffer_size', 'wait_end_of_query', 'enable_http_compression', 'http_zlib_compression_level',
  'send_progress_in_http_headers', 'http_headers_progress_interval_ms', 'http_response_buffer_size', 'http_wait_end_of_query', 'cancel_http_readonly_queries_on_client_close']);
const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DATABASE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Error codes the server answers with a status other than 500 (ClickHouse's HTTPHandler mapping, abridged). */
const STATUS_BY_CODE = new Map<number, number>([
  [62, 400], [6, 400], [27, 400], [38, 400], [41, 400], [43, 400], [53, 400], [72, 400], [115, 400], [117, 400], [456, 400], [457, 400], [47, 400],
  [60, 404], [81, 404], [516, 401], [497, 403], [159, 504], [202, 503], [241, 500],
]);

// Server defaults that differ from the embedded engine's: a server quotes 64-bit integers in JSON
// formats (clients read them as strings), clickhouse-local does not.
const SERVER_DEFAULTS = ['--output_format_json_quote_64bit_integers=1'];

export interface ChdbHttpServer {
  port: number;
  close(): Promise<void>;
}

class EngineError extends Error {
  constructor(readonly code: number, readonly type: string, message: string) { super(message); }
}

const quoteString = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function asEngineError(err: unknown): EngineError {
  if (err instanceof EngineError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const m = /Code: (\d+)\. DB::Exception: ([\s\S]*?)\s*\(([A-Z0-9_]+)\)(?:\s*\(version[^)]*\))?\s*$/.exec(message.trim());
  if (m) return new EngineError(Number(m[1]), m[3]!, m[2]!);
  return new EngineError(1001, 'STD_EXCEPTION', message);
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  const enc = (req.headers['content-encoding'] ?? '').toLowerCase();
  if (!enc || enc === 'identity') return raw;
  if (enc === 'gzip') return gunzip(raw);
  if (enc === 'deflate') return inflate(raw);
  throw new EngineError(1001, 'STD_EXCEPTION', `Unknown Content-Encoding of HTTP request: ${enc}`);
}

/** `multipart/form-data` bodies: @clickhouse/client's use_multipart_params sends the query and `param_*` this way. */
function parseMultipart(body: Buffer, contentType: string): Map<string, string> | undefined {
  const b = /boundary=([^;]+)/.exec(contentType)?.[1];
  if (!contentType.startsWith('multipart/form-data') || !b) return undefined;
  const parts = new Map<string, string>();
  for (const chunk of body.toString('utf8').split(`--${b}`)) {
    const m = /^\r\nContent-Disposition: form-data; name="([^"]+)"\r\n(?:[^\r\n]+\r\n)*\r\n([\s\S]*)\r\n$/.exec(chunk);
    if (m) parts.set(m[1]!, m[2]!);
  }
  return parts;
}

/** The FORMAT a statement names at its end (what the server reports in X-ClickHouse-Format). */
function declaredFormat(sql: string): string | undefined {
  return /\bFORMAT\s+([A-Za-z0-9_]+)\s*;?\s*$/i.exec(sql.slice(-200))?.[1];
}

export function startChdbHttpServer(opts: { dataDir: string; port?: number; host?: string }): Promise<ChdbHttpServer> {
  mkdirSync(opts.dataDir, { recursive: true });
  const root = new Session(opts.dataDir, { connectionArgs: SERVER_DEFAULTS });
  const version = root.query('SELECT version()', 'TSVRaw').trim();
  const timezone = root.query('SELECT timezone()', 'TSVRaw').trim();
  // One connection per database: each keeps its own current database (`database=` → USE).
  const sessions = new Map<string, Session>([['default', root]]);
  // Settings the engine currently runs with, as SET by an earlier request, and their values before.
  const applied = new Map<string, string>();
  const baseline = new Map<string, string>();
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(f: () => Promise<T>): Promise<T> => {
    const run = queue.then(f, f);
    queue = run.catch(() => undefined);
    return run;
  };

  const run = (session: Session, sql: string, format: string, params?: Record<string, string>): Promise<NativeResult> =>
    addon.QueryAsyncConnection(session.connection, sql, format, params).catch((err: unknown) => { throw asEngineError(err); });

  async function sessionFor(database: string): Promise<Session> {
    let s = sessions.get(database);
    if (s) return s;
    if (!DATABASE_NAME.test(database)) throw new EngineError(81, 'UNKNOWN_DATABASE', `Database ${database} does not exist`);
    s = new Session(opts.dataDir, { connectionArgs: SERVER_DEFAULTS });
    try {
      await run(s, `USE \`${database}\``, 'TSV');
    } catch (err) {
      s.close();
      throw err;
    }
    sessions.set(database, s);
    return s;
  }

  /** Brings the engine's settings to this request's: its own values, the baseline for the rest. */
  async function applySettings(wanted: Map<string, string>): Promise<void> {
    for (const k of wanted.keys()) {
      if (!SETTING_NAME.test(k)) throw new EngineError(115, 'UNKNOWN_SETTING', `Unknown setting '${k}'`);
      if (!baseline.has(k)) {
        const r = await run(root, `SELECT toString(getSetting(${quoteString(k)}))`, 'TSVRaw');
        baseline.set(k, r.bytes.toString('utf8').replace(/\n$/, ''));
        applied.set(k, baseline.get(k)!);
      }
    }
    const sets: string[] = [];
    for (const [k, base] of baseline) {
      const v = wanted.get(k) ?? base;
      if (applied.get(k) !== v) sets.push(`${k} = ${quoteString(v)}`);
    }
    if (sets.length === 0) return;
    try {
      await run(root, `SET ${sets.join(', ')}`, 'TSV');
    } finally {
      // A refused SET leaves the values unknown: read them back rather than guess.
      for (const k of baseline.keys()) {
        const r = await run(root, `SELECT toString(getSetting(${quoteString(k)}))`, 'TSVRaw').catch(() => undefined);
        if (r) applied.set(k, r.bytes.toString('utf8').replace(/\n$/, ''));
      }
    }
  }

  async function execute(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    const queryId = url.searchParams.get('query_id') || randomUUID();
    res.setHeader('X-ClickHouse-Query-Id', queryId);
    res.setHeader('X-ClickHouse-Timezone', timezone);
    res.setHeader('X-ClickHouse-Server-Display-Name', 'chdb-http');
    const body = req.method === 'POST' ? await readBody(req) : Buffer.alloc(0);
    const fields = new Map<string, string>(url.searchParams);
    const multipart = parseMultipart(body, req.headers['content-type'] ?? '');
    if (multipart) for (const [k, v] of multipart) fields.set(k, v);
    const inUrl = fields.get('query') ?? '';
    const data = multipart ? '' : body.toString('utf8');
    // As the server does: the URL's query, then the body (the statement itself, or an INSERT's rows).
    const sql = inUrl && data ? `${inUrl}\n${data}` : inUrl || data;
    const params: Record<string, string> = {};
    const settings = new Map<string, string>();
    for (const [k, v] of fields) {
      if (k.startsWith('param_')) params[k.slice('param_'.length)] = v;
      else if (!HTTP_PARAMS.has(k)) settings.set(k, v);
    }
    const format = declaredFormat(inUrl || data) ?? fields.get('default_format') ?? 'TabSeparated';
    if (!sql.trim()) throw new EngineError(62, 'SYNTAX_ERROR', 'Empty query');
    // An INSERT whose body holds no rows is a no-op that succeeds (the server reads zero rows).
    if (inUrl && /^\s*INSERT\b/i.test(inUrl) && !data.trim()) {
      finish(res, 200, format, { read_rows: 0, read_bytes: 0, written_rows: 0, written_bytes: 0, elapsed: 0 }, Buffer.alloc(0));
      return;
    }
    const result = await serial(async () => {
      const session = await sessionFor(fields.get('database') || 'default');
      await applySettings(settings);
      return run(session, sql, format, Object.keys(params).length ? params : undefined);
    });
    const insert = /^\s*INSERT\b/i.test(sql);
    finish(res, 200, format, {
      read_rows: result.rowsRead, read_bytes: result.bytesRead,
      written_rows: insert ? result.rowsRead : 0, written_bytes: insert ? data.length : 0, elapsed: result.elapsed,
    }, result.bytes);
  }

  function finish(res: http.ServerResponse, status: number, format: string, s: { read_rows: number; read_bytes: number; written_rows: number; written_bytes: number; elapsed: number }, out: Buffer): void {
    res.setHeader('X-ClickHouse-Format', format);
    res.setHeader('X-ClickHouse-Summary', JSON.stringify({
      read_rows: String(s.read_rows), read_bytes: String(s.read_bytes), written_rows: String(s.written_rows), written_bytes: String(s.written_bytes),
      total_rows_to_read: '0', result_rows: String(s.read_rows), result_bytes: String(out.length), elapsed_ns: String(Math.round(s.elapsed * 1e9)),
    }));
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=UTF-8', 'Content-Length': out.length });
    res.end(out);
  }

  function fail(res: http.ServerResponse, err: unknown): void {
    const e = asEngineError(err);
    const text = `Code: ${e.code}. DB::Exception: ${e.message} (${e.type}) (version ${version})\n`;
    if (res.headersSent) { res.destroy(); return; }
    res.setHeader('X-ClickHouse-Exception-Code', String(e.code));
    res.writeHead(STATUS_BY_CODE.get(e.code) ?? 500, { 'Content-Type': 'text/plain; charset=UTF-8' });
    res.end(text);
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && (url.pathname === '/ping' || (url.pathname === '/' && !url.searchParams.has('query')))) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8' });
      res.end('Ok.\n');
      return;
    }
    if (url.pathname !== '/' || (req.method !== 'POST' && req.method !== 'GET')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=UTF-8' });
      res.end('There is no handle ' + url.pathname + '\n');
      return;
    }
    execute(req, res, url).catch((err: unknown) => fail(res, err));
  });
  server.keepAliveTimeout = 10_000;

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      const addr = server.address();
      resolve({
        port: typeof addr === 'object' && addr ? addr.port : 0,
        async close() {
          await new Promise<void>((r) => { server.close(() => r()); server.closeIdleConnections(); });
          await queue;
          for (const s of sessions.values()) s.close();
        },
      });
    });
  });
}
