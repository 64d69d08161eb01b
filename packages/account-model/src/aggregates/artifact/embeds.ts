// Embed resolution in a workflow revision's `data` (E§2.7 "Resolve and embeds", E§1.3 `resolve:true`),
// pure: the caller reads the referenced revisions (project-scoped) through the `EmbedLookup` it
// passes, so this module is async only through that function and never mutates what it is given.
//
// Three forms, found anywhere in the JSON tree (object values and array items; keys are never read
// as embeds):
//   1. object  `{"@ag.embed": {"@ag.references": {<kind>: {id|slug|version}}, "@ag.selector"?: {key?, path?}}}`
//      — an object whose ONLY key is `@ag.embed`; replaced structurally by the selected value.
//   2. string  `@ag.embed[@ag.references[<kind>.<field>=<value>, …], @ag.selector[path:…, key:…]]`
//      — replaced inside its string by the selected value stringified (strings as-is, others JSON).
//   3. snippet `@{{<kind>.<field>=<value>, key=<k>, path=<p>}}` — `path` is relative to
//      `parameters.` (default `prompt.messages.0.content`); replaced like a string embed.
// The module applies `path` itself; `key` is passed to the lookup inside the target, which follows
// it through an environment's references (E§1.3 "Environment path").
//
// Resolution is depth-first and sequential (first-found order): an embed's selected content is
// resolved in its turn with the target on the resolution stack, one nesting level deeper. Failures
// (missing target or path, cycle, depth or count overflow, a malformed embed) are `EmbedError`s
// handled where the embed stands, by the error policy: `exception` throws the first one;
// `placeholder` puts `"<error:<message>>"` in place of the embed (a string embed: in place of its
// token); `keep` leaves the embed as written. The last two list every message in `info.errors`.
// Anything else the lookup throws propagates under every policy.

export type EmbedErrorPolicy = 'exception' | 'placeholder' | 'keep';
export type EmbedErrorKind = 'not_found' | 'cycle' | 'depth' | 'count' | 'invalid';

/** An entity-level reference as in `@ag.references` (E§1.3 `Ref`). */
export interface EmbedRef { id?: string; slug?: string; version?: string }

/** What an embed names: entity-level refs as in `@ag.references` (e.g. {workflow_revision: {id|slug|version}} or {environment: {slug}, ...}), plus the selector. */
export interface EmbedTarget { references: Record<string, EmbedRef>; selector?: { key?: string; path?: string } }

/** A resolved revision's own ref, as listed in `references_used`. */
export interface ResolvedRef { kind: string; id: string; slug?: string; version?: string }

/** The lookup the caller provides: the referenced revision's data and its own refs (for references_used), or undefined when it cannot be found in the project. For environment targets the caller resolves `selector.key` through the environment's references to the workflow revision it names. */
export type EmbedLookup = (target: EmbedTarget) => Promise<{ data: Record<string, unknown>; ref: ResolvedRef } | undefined>;

export interface ResolutionInfo { references_used: ResolvedRef[]; depth_reached: number; embeds_resolved: number; errors: string[] }

export interface ResolveEmbedsOptions {
  /** Deepest nesting resolved: embeds written in `data` are level 1, those in their content level 2, … (default 10). */
  maxDepth?: number;
  /** Lookups allowed in one resolution; every embed that reaches the lookup spends one (default 100). */
  maxEmbeds?: number;
  errorPolicy?: EmbedErrorPolicy;
  /** The revision whose `data` this is: on the resolution stack from the start, so embedding it is a cycle. */
  self?: { kind: string; id: string };
}

export class EmbedError extends Error {
  constructor(message: string, readonly kind: EmbedErrorKind) {
    super(message);
    this.name = 'EmbedError';
  }
}

export const EMBED_KEY = '@ag.embed';
export const REFERENCES_KEY = '@ag.references';
export const SELECTOR_KEY = '@ag.selector';
export const DEFAULT_MAX_DEPTH = 10;
export const DEFAULT_MAX_EMBEDS = 100;
/** A snippet's default path, relative to `parameters.`. */
export const SNIPPET_DEFAULT_PATH = 'prompt.messages.0.content';

const STRING_OPEN = '@ag.embed[';
const SNIPPET_OPEN = '@{{';
const SNIPPET_CLOSE = '}}';
const REF_FIELDS = ['id', 'slug', 'version'] as const;
type RefField = (typeof REF_FIELDS)[number];
const KIND_RE = /^[A-Za-z][A-Za-z0-9_]*$/;

// --- Public entry --------------------------------------------------------------------------------

/**
 * Resolve every embed in `data` (a revision's data) through `lookup`. Returns a fresh tree (the
 * input and the lookup's data are never mutated) and the `resolution_info` of E§1.3.
 */
export async function resolveEmbeds(
  data: Record<string, unknown>,
  lookup: EmbedLookup,
  opts: ResolveEmbedsOptions = {},
): Promise<{ data: Record<string, unknown>; info: ResolutionInfo }> {
  const maxDepth = limit(opts.maxDepth, DEFAULT_MAX_DEPTH, 'maxDepth');
  const maxEmbeds = limit(opts.maxEmbeds, DEFAULT_MAX_EMBEDS, 'maxEmbeds');
  const st: State = {
    lookup, maxDepth, maxEmbeds, policy: opts.errorPolicy ?? 'exception', spent: 0, usedIds: new Set(),
    info: { references_used: [], depth_reached: 0, embeds_resolved: 0, errors: [] },
  };
  const ctx: Context = { stack: opts.self ? [opts.self.id] : [], depth: 0 };
  if (isEmbedObject(data)) {
    // The data itself cannot be replaced by a selected value (or a placeholder string): it stays a
    // revision's data object. Reported as a malformed embed.
    const error = new EmbedError('Invalid embed: the revision data itself cannot be an embed.', 'invalid');
    if (st.policy === 'exception') throw error;
    st.info.errors.push(error.message);
    return { data: structuredClone(data), info: st.info };
  }
  return { data: await walkObject(data, ctx, st), info: st.info };
}

// --- Parsing ---------------------------------------------------------------------------------------

/** A parsed embed: the target handed to the lookup and the dotted path this module applies. */
interface ParsedEmbed { target: EmbedTarget; path?: string }

/** An object embed: a plain object whose only own key is `@ag.embed`. */
export function isEmbedObject(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && Object.keys(value).length === 1 && Object.hasOwn(value, EMBED_KEY);
}

/** The body of an object embed (`value["@ag.embed"]`) → target and path, or an `invalid` EmbedError. */
function parseObjectEmbed(node: Record<string, unknown>): ParsedEmbed {
  const body = node[EMBED_KEY];
  if (!isPlainObject(body)) throw invalid(`"${EMBED_KEY}" must be an object`);
  const refs = body[REFERENCES_KEY];
  if (!isPlainObject(refs) || Object.keys(refs).length === 0) throw invalid(`"${REFERENCES_KEY}" must be a non-empty object`);
  const references: Record<string, EmbedRef> = {};
  for (const [kind, raw] of Object.entries(refs)) {
    if (!KIND_RE.test(kind)) throw invalid(`unknown reference kind '${kind}'`);
    if (!isPlainObject(raw)) throw invalid(`reference '${kind}' must be an object`);
    const ref: EmbedRef = {};
    for (const field of REF_FIELDS) {
      const v = raw[field];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string' || v === '') throw invalid(`reference '${kind}.${field}' must be a non-empty string`);
      ref[field] = v;
    }
    if (Object.keys(ref).length === 0) throw invalid(`reference '${kind}' needs an id, slug or version`);
    define(references, kind, ref);
  }
  const sel = body[SELECTOR_KEY];
  if (sel === undefined || sel === null) return { target: { references } };
  if (!isPlainObject(sel)) throw invalid(`"${SELECTOR_KEY}" must be an object`);
  const selector: { key?: string; path?: string } = {};
  for (const field of ['key', 'path'] as const) {
    const v = sel[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' || v === '') throw invalid(`selector '${field}' must be a non-empty string`);
    selector[field] = v;
  }
  return withSelector(references, selector);
}

/**
 * The inside of `@ag.embed[…]`: one `@ag.references[…]` (comma-separated `<kind>.<field>=<value>`,
 * several kinds or fields allowed) and at most one `@ag.selector[…]` (comma-separated `path:<p>`
 * and/or `key:<k>`; `=` accepted for `:`), in either order, separated by commas or spaces only.
 */
function parseStringEmbed(inner: string): ParsedEmbed {
  const part = /@ag\.(references|selector)\[([^\]]*)\]/g;
  let refsText: string | undefined;
  let selText: string | undefined;
  for (const m of inner.matchAll(part)) {
    const [, which, content = ''] = m;
    if (which === 'references') {
      if (refsText !== undefined) throw invalid('more than one @ag.references');
      refsText = content;
    } else {
      if (selText !== undefined) throw invalid('more than one @ag.selector');
      selText = content;
    }
  }
  if (!/^[\s,]*$/.test(inner.replace(part, ''))) throw invalid(`unexpected text in ${STRING_OPEN}${inner}]`);
  if (refsText === undefined) throw invalid(`${STRING_OPEN}…] needs @ag.references[…]`);
  const references: Record<string, EmbedRef> = {};
  const entries = splitList(refsText, /,/);
  if (entries.length === 0) throw invalid('@ag.references[…] is empty');
  for (const entry of entries) addReference(references, entry);
  const selector: { key?: string; path?: string } = {};
  for (const entry of selText === undefined ? [] : splitList(selText, /,/)) {
    const at = entry.search(/[:=]/);
    if (at < 0) throw invalid(`selector '${entry}' is not <key|path>:<value>`);
    setSelector(selector, entry.slice(0, at).trim(), entry.slice(at + 1).trim());
  }
  return withSelector(references, selector);
}

/**
 * The inside of `@{{…}}`: parts separated by `,` (or `&`), each `<kind>.<field>=<value>` (a
 * reference), `key=<k>` or `path=<p>`. The path the module applies is `parameters.<p>`, `<p>`
 * defaulting to `prompt.messages.0.content`.
 */
function parseSnippet(inner: string): ParsedEmbed {
  const references: Record<string, EmbedRef> = {};
  const selector: { key?: string; path?: string } = {};
  for (const entry of splitList(inner, /[,&]/)) {
    const eq = entry.indexOf('=');
    if (eq < 0) throw invalid(`snippet part '${entry}' is not <name>=<value>`);
    const name = entry.slice(0, eq).trim();
    if (name.includes('.')) addReference(references, entry);
    else setSelector(selector, name, entry.slice(eq + 1).trim());
  }
  if (Object.keys(references).length === 0) throw invalid(`snippet @{{${inner}}} names no reference`);
  selector.path = `parameters.${selector.path ?? SNIPPET_DEFAULT_PATH}`;
  return withSelector(references, selector);
}

function addReference(references: Record<string, EmbedRef>, entry: string): void {
  const eq = entry.indexOf('=');
  const lhs = eq < 0 ? '' : entry.slice(0, eq).trim();
  const value = eq < 0 ? '' : entry.slice(eq + 1).trim();
  const dot = lhs.lastIndexOf('.');
  const kind = lhs.slice(0, dot);
  const field = lhs.slice(dot + 1);
  if (dot < 0 || !KIND_RE.test(kind) || !isRefField(field) || value === '') throw invalid(`reference '${entry}' is not <kind>.<id|slug|version>=<value>`);
  const ref = Object.hasOwn(references, kind) ? references[kind] : undefined;
  if (ref === undefined) define(references, kind, { [field]: value });
  else if (ref[field] !== undefined) throw invalid(`reference '${kind}.${field}' given twice`);
  else ref[field] = value;
}

function setSelector(selector: { key?: string; path?: string }, name: string, value: string): void {
  if (name !== 'key' && name !== 'path') throw invalid(`unknown selector '${name}'`);
  if (value === '') throw invalid(`selector '${name}' is empty`);
  if (selector[name] !== undefined) throw invalid(`selector '${name}' given twice`);
  selector[name] = value;
}

function withSelector(references: Record<string, EmbedRef>, selector: { key?: string; path?: string }): ParsedEmbed {
  if (selector.key === undefined && selector.path === undefined) return { target: { references } };
  return { target: { references, selector }, ...(selector.path !== undefined && { path: selector.path }) };
}

/** A string token: `@ag.embed[…]` (balanced brackets) or `@{{…}}` (up to the first `}}`). */
interface Token { form: 'string' | 'snippet'; start: number; end: number; inner: string }

/** The first complete token at or after `from`; an opener with no close is plain text. */
function nextToken(text: string, from: number): Token | undefined {
  let e = text.indexOf(STRING_OPEN, from);
  let s = text.indexOf(SNIPPET_OPEN, from);
  while (e >= 0 || s >= 0) {
    if (e >= 0 && (s < 0 || e < s)) {
      const end = closingBracket(text, e + STRING_OPEN.length);
      if (end >= 0) return { form: 'string', start: e, end: end + 1, inner: text.slice(e + STRING_OPEN.length, end) };
      e = text.indexOf(STRING_OPEN, e + 1);
    } else {
      const close = text.indexOf(SNIPPET_CLOSE, s + SNIPPET_OPEN.length);
      if (close >= 0) return { form: 'snippet', start: s, end: close + SNIPPET_CLOSE.length, inner: text.slice(s + SNIPPET_OPEN.length, close) };
      s = -1; // no `}}` after this one, so none after any later opener either
    }
  }
  return undefined;
}

/** The index of the `]` closing a bracket opened just before `from`, or -1. */
function closingBracket(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '[') depth++;
    else if (text[i] === ']' && --depth === 0) return i;
  }
  return -1;
}

// --- Resolution ----------------------------------------------------------------------------------

interface State {
  lookup: EmbedLookup; maxDepth: number; maxEmbeds: number; policy: EmbedErrorPolicy;
  /** Lookups made so far (the max_embeds budget). */
  spent: number;
  usedIds: Set<string>;
  info: ResolutionInfo;
}

/** Where content is being resolved: the ids of the revisions on the stack, and its nesting level (data = 0). */
interface Context { stack: readonly string[]; depth: number }

async function walk(value: unknown, ctx: Context, st: State): Promise<unknown> {
  if (typeof value === 'string') return walkString(value, ctx, st);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) out.push(await walk(item, ctx, st));
    return out;
  }
  if (isEmbedObject(value)) return objectEmbedSite(value, ctx, st);
  if (isPlainObject(value)) return walkObject(value, ctx, st);
  return value;
}

async function walkObject(value: Record<string, unknown>, ctx: Context, st: State): Promise<Record<string, unknown>> {
  const entries: Array<[string, unknown]> = [];
  for (const [key, item] of Object.entries(value)) entries.push([key, await walk(item, ctx, st)]);
  return Object.fromEntries(entries);
}

async function walkString(text: string, ctx: Context, st: State): Promise<string> {
  if (!text.includes(STRING_OPEN) && !text.includes(SNIPPET_OPEN)) return text;
  let out = '';
  let at = 0;
  for (let token = nextToken(text, 0); token; token = nextToken(text, at)) {
    out += text.slice(at, token.start);
    const raw = text.slice(token.start, token.end);
    const { form, inner } = token;
    const resolved = await site(async () => stringify(await resolveParsed(form === 'string' ? parseStringEmbed(inner) : parseSnippet(inner), ctx, st)), () => raw, st);
    out += resolved;
    at = token.end;
  }
  return out + text.slice(at);
}

async function objectEmbedSite(node: Record<string, unknown>, ctx: Context, st: State): Promise<unknown> {
  return site(() => resolveParsed(parseObjectEmbed(node), ctx, st), () => structuredClone(node), st);
}

/** Run one embed's resolution; an EmbedError is handled here, by the policy. */
async function site<T>(resolve: () => Promise<T>, verbatim: () => T, st: State): Promise<T | string> {
  try {
    return await resolve();
  } catch (e) {
    if (!(e instanceof EmbedError) || st.policy === 'exception') throw e;
    st.info.errors.push(e.message);
    return st.policy === 'placeholder' ? `<error:${e.message}>` : verbatim();
  }
}

/** Resolve one embed standing in content at `ctx`: its selected value, fully resolved. */
async function resolveParsed({ target, path }: ParsedEmbed, ctx: Context, st: State): Promise<unknown> {
  const level = ctx.depth + 1;
  const named = describe(target);
  if (level > st.maxDepth) throw new EmbedError(`Embed depth exceeds max_depth=${st.maxDepth} at ${named}.`, 'depth');
  if (st.spent >= st.maxEmbeds) throw new EmbedError(`Embed count exceeds max_embeds=${st.maxEmbeds} at ${named}.`, 'count');
  st.spent++;
  const found = await st.lookup(structuredClone(target));
  if (!found) throw new EmbedError(`Embed target not found: ${named}.`, 'not_found');
  const { ref } = found;
  if (ctx.stack.includes(ref.id)) throw new EmbedError(`Circular embed: ${named} is ${ref.kind} ${ref.id}, which is already being resolved.`, 'cycle');
  const inner: Context = { stack: [...ctx.stack, ref.id], depth: level };
  const selected = await select(found.data, path, inner, st, ref);
  st.info.embeds_resolved++;
  st.info.depth_reached = Math.max(st.info.depth_reached, level);
  if (!st.usedIds.has(ref.id)) {
    st.usedIds.add(ref.id);
    st.info.references_used.push(copyRef(ref));
  }
  return selected.resolved ? selected.value : walk(selected.value, inner, st);
}

/**
 * The value at dotted `path` in a target's data (the whole data without a path; integer segments
 * index arrays; own keys only). An object embed met on the way is resolved first (in the target's
 * context), so a path may run through embedded content; what lies past it is then already resolved.
 */
async function select(data: Record<string, unknown>, path: string | undefined, inner: Context, st: State, ref: ResolvedRef): Promise<{ value: unknown; resolved: boolean }> {
  if (path === undefined) return { value: data, resolved: false };
  let cur: unknown = data;
  let resolved = false;
  const missing = () => new EmbedError(`Selector path '${path}' not found in ${ref.kind} ${ref.id}.`, 'not_found');
  for (const seg of path.split('.')) {
    if (!resolved && isEmbedObject(cur)) {
      cur = await objectEmbedSite(cur, inner, st);
      resolved = true;
    }
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(seg) || Number(seg) >= cur.length) throw missing();
      cur = cur[Number(seg)];
    } else if (isPlainObject(cur) && Object.hasOwn(cur, seg)) {
      cur = cur[seg];
    } else {
      throw missing();
    }
  }
  return { value: cur, resolved };
}

// --- Helpers -------------------------------------------------------------------------------------

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isRefField(field: string): field is RefField {
  return (REF_FIELDS as readonly string[]).includes(field);
}

/** Set an own data property (safe for a key such as `__proto__`). */
function define(target: Record<string, EmbedRef>, key: string, value: EmbedRef): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function splitList(text: string, sep: RegExp): string[] {
  return text.split(sep).map((s) => s.trim()).filter((s) => s !== '');
}

function invalid(reason: string): EmbedError {
  return new EmbedError(`Invalid embed: ${reason}.`, 'invalid');
}

/** `workflow_revision.slug=x, workflow_revision.version=v1 (key=k)`: what an embed names, for messages. */
function describe(target: EmbedTarget): string {
  const refs = Object.entries(target.references).flatMap(([kind, ref]) => REF_FIELDS.filter((f) => ref[f] !== undefined).map((f) => `${kind}.${f}=${ref[f]}`));
  const key = target.selector?.key;
  return refs.join(', ') + (key === undefined ? '' : ` (key=${key})`);
}

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
}

function copyRef(ref: ResolvedRef): ResolvedRef {
  return { kind: ref.kind, id: ref.id, ...(ref.slug !== undefined && { slug: ref.slug }), ...(ref.version !== undefined && { version: ref.version }) };
}

function limit(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}.`);
  return value;
}
