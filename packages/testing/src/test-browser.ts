// A browser-less user agent for sign-in flows in tests: a cookie jar, redirects followed by hand
// (so a test can stop at any hop, e.g. at the redirect back to the relying party), and HTML forms
// filled in and submitted the way a person would. Deliberately small: it understands the plain
// server-rendered forms identity providers use, not scripts.

interface StoredCookie {
  name: string;
  value: string;
  host: string;
  path: string;
  expiresAt: number | undefined;
  secure: boolean;
}

export interface HtmlForm {
  action: URL;
  method: 'GET' | 'POST';
  /** Named inputs with their current values (hidden ones included). */
  fields: Map<string, string>;
  /** Submit buttons by name: the values they would send. */
  buttons: Map<string, string[]>;
}

export interface FollowOptions {
  /** Stop (without requesting it) at the first URL for which this is true. */
  stopAt?: (url: URL) => boolean;
  /**
   * Values to type into forms, by field name; a button name maps to the value of the button to
   * press. Pages with a form are submitted, others end the walk.
   */
  fill?: Readonly<Record<string, string>>;
  maxSteps?: number;
}

export interface FollowResult {
  /** Where the walk stopped: the `stopAt` URL, or the last page fetched. */
  url: URL;
  /** The last response received (the one that redirected to `url` when stopped early). */
  response: Response;
  /** The last response body, read once for form detection. */
  body: string;
  /** Every URL requested, in order. */
  history: URL[];
}

export interface TestBrowser {
  /** One request with the jar's cookies; redirects are returned, not followed. */
  request(url: string | URL, init?: { method?: string; form?: Readonly<Record<string, string>>; headers?: Readonly<Record<string, string>> }): Promise<Response>;
  follow(url: string | URL, options?: FollowOptions): Promise<FollowResult>;
  /** Cookies the jar would send to `url`, as `name → value`. */
  cookiesFor(url: string | URL): Map<string, string>;
}

const REDIRECT = new Set([301, 302, 303, 307, 308]);
// Browsers treat loopback as a secure context, so `Secure` cookies travel over http there.
const trustworthy = (url: URL): boolean => url.protocol === 'https:' || ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

export function createTestBrowser(): TestBrowser {
  const jar: StoredCookie[] = [];

  function store(url: URL, header: string): void {
    const [pair = '', ...attrs] = header.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const cookie: StoredCookie = {
      name: pair.slice(0, eq).trim(),
      value: pair.slice(eq + 1).trim(),
      host: url.host,
      path: defaultPath(url),
      expiresAt: undefined,
      secure: false,
    };
    for (const attr of attrs) {
      const [k = '', ...rest] = attr.split('=');
      const key = k.trim().toLowerCase();
      const v = rest.join('=').trim();
      if (key === 'path' && v.startsWith('/')) cookie.path = v;
      else if (key === 'max-age' && /^-?\d+$/.test(v)) cookie.expiresAt = Date.now() + Number(v) * 1000;
      else if (key === 'expires' && cookie.expiresAt === undefined && !Number.isNaN(Date.parse(v))) cookie.expiresAt = Date.parse(v);
      else if (key === 'secure') cookie.secure = true;
    }
    if (cookie.secure && !trustworthy(url)) return;
    const i = jar.findIndex((c) => c.name === cookie.name && c.host === cookie.host && c.path === cookie.path);
    if (i >= 0) jar.splice(i, 1);
    if (cookie.expiresAt === undefined || cookie.expiresAt > Date.now()) jar.push(cookie);
  }

  function matching(url: URL): StoredCookie[] {
    const now = Date.now();
    return jar
      .filter((c) => c.host === url.host && pathMatches(url.pathname, c.path) && (c.expiresAt === undefined || c.expiresAt > now) && (!c.secure || trustworthy(url)))
      .sort((a, b) => b.path.length - a.path.length); // most specific path first, as browsers do
  }

  async function request(target: string | URL, init: Parameters<TestBrowser['request']>[1] = {}): Promise<Response> {
    const url = new URL(target);
    const headers = new Headers(init.headers);
    const cookies = matching(url);
    if (cookies.length > 0) headers.set('cookie', cookies.map((c) => `${c.name}=${c.value}`).join('; '));
    let body: string | undefined;
    if (init.form) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    for (const header of res.headers.getSetCookie()) store(url, header);
    return res;
  }

  async function follow(start: string | URL, options: FollowOptions = {}): Promise<FollowResult> {
    const history: URL[] = [];
    let url = new URL(start);
    let next: Parameters<TestBrowser['request']>[1] = {};
    for (let step = 0; step < (options.maxSteps ?? 20); step++) {
      history.push(url);
      const response = await request(url, next);
      const location = response.headers.get('location');
      if (REDIRECT.has(response.status) && location) {
        await response.body?.cancel();
        const to = new URL(location, url);
        if (options.stopAt?.(to)) return { url: to, response, body: '', history };
        // 307/308 would repeat a POST; identity providers answer forms with 302/303.
        next = {};
        url = to;
        continue;
      }
      const body = await response.text();
      const form = options.fill ? parseForm(body, url) : undefined;
      // No form, or the form we just submitted came back (e.g. a refused password): stop here.
      if (!form || (next.method === 'POST' && form.action.href === url.href)) return { url, response, body, history };
      const values: Record<string, string> = Object.fromEntries(form.fields);
      for (const [name, value] of Object.entries(options.fill ?? {})) if (form.fields.has(name)) values[name] = value;
      const button = pickButton(form, options.fill ?? {});
      if (button) values[button[0]] = button[1];
      if (form.method === 'GET') {
        url = new URL(form.action);
        url.search = new URLSearchParams(values).toString();
        next = {};
      } else {
        url = form.action;
        next = { method: 'POST', form: values };
      }
      if (options.stopAt?.(url)) return { url, response, body, history };
    }
    throw new Error(`sign-in walk did not finish within ${options.maxSteps ?? 20} steps: ${history.map(String).join(' -> ')}`);
  }

  return {
    request,
    follow,
    cookiesFor: (url) => new Map(matching(new URL(url)).map((c) => [c.name, c.value])),
  };
}

function defaultPath(url: URL): string {
  const p = url.pathname;
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

function pickButton(form: HtmlForm, fill: Readonly<Record<string, string>>): [string, string] | undefined {
  for (const [name, values] of form.buttons) {
    const wanted = fill[name];
    if (wanted !== undefined && values.includes(wanted)) return [name, wanted];
  }
  const first = form.buttons.entries().next();
  return first.done ? undefined : [first.value[0], first.value[1][0] ?? ''];
}

/** The first `<form>` of a page, or undefined when there is none. */
export function parseForm(html: string, base: URL): HtmlForm | undefined {
  const match = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!match) return undefined;
  const attrs = attributes(match[1] ?? '');
  const inner = match[2] ?? '';
  const fields = new Map<string, string>();
  const buttons = new Map<string, string[]>();
  for (const tag of inner.matchAll(/<(input|button)\b([^>]*)>/gi)) {
    const a = attributes(tag[2] ?? '');
    const name = a.get('name');
    if (!name) continue;
    const type = (a.get('type') ?? (tag[1]!.toLowerCase() === 'button' ? 'submit' : 'text')).toLowerCase();
    if (type === 'submit') buttons.set(name, [...(buttons.get(name) ?? []), a.get('value') ?? '']);
    else if (type !== 'checkbox' && type !== 'radio') fields.set(name, a.get('value') ?? '');
  }
  return {
    action: new URL(attrs.get('action') ?? base.href, base),
    method: (attrs.get('method') ?? 'get').toUpperCase() === 'POST' ? 'POST' : 'GET',
    fields,
    buttons,
  };
}

function attributes(source: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of source.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    out.set(m[1]!.toLowerCase(), unescapeHtml(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return out;
}

function unescapeHtml(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[e] ?? _);
}
