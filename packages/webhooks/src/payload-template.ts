// The `payload_fields` template (reference accounts §9.6): the payload a receiver gets is the
// template with every leaf string starting with `$` replaced by a JSONPath query over the delivery
// context (one match → the value, several → a list, none or an invalid path → null) and every
// leaf starting with `/` by a JSON Pointer (RFC 6901; missing → null); other leaves are literal.
// No template → the whole context. Nesting is limited to 10 levels: `templateProblem` says so
// before a template is stored (a 422).
//
// Size budget: one leaf can copy the whole context (`"$"`, `"$.subscription.meta"`), and a
// template has up to 10,000 leaves, so the resolved payload could be thousands of times the
// context (a 318 MB body from 9,000 × "$"). `resolvePayload` therefore counts the canonical size
// of every match as it inserts it (canonicalJsonLength: bounded work, a subtree met again is
// memoized), and of the template's own keys and literals, so the total is exactly the length of
// the body; it throws `PayloadTooLargeError` as soon as the running total passes
// MAX_PAYLOAD_BYTES (1 MiB), without building the value; the whole context (no template) is
// measured the same way (attributes, tags and meta can be large). That error is the only thing
// it throws: a delivery whose payload does not fit fails for good (code "400", see
// outbound-request.ts), it is not retried.
//
// The JSONPath subset is implemented here rather than taken from a library: it is small (`$`,
// `.name`, `['name']`, `["name"]`, `[n]` with negative n, `[*]`, `.*`, `..` recursive descent),
// the popular packages evaluate script/filter expressions (`?()`, `()`), which a user-supplied path
// must never reach, and a bounded, non-throwing evaluator is easier to guarantee when we own it.
import { canonicalJsonLength } from './canonical-json.ts';

/** Levels of nested objects/arrays a template may have. */
export const TEMPLATE_MAX_DEPTH = 10;
/** Nodes (containers and leaves) a template may have. */
export const TEMPLATE_MAX_NODES = 10_000;
const MAX_PATH_LENGTH = 1024;
const MAX_SEGMENTS = 64;
/** Context nodes one `resolvePayload` may visit while evaluating paths; beyond it paths yield null. */
const VISIT_BUDGET = 200_000;
/** The largest payload a delivery sends: its canonical JSON, in bytes. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;

/** The resolved payload would exceed MAX_PAYLOAD_BYTES: the delivery fails for good (code "400"). */
export class PayloadTooLargeError extends Error {
  override readonly name = 'PayloadTooLargeError';
  /** The delivery status code such a delivery is recorded with. */
  readonly code = '400';
  constructor(readonly limitBytes: number, what: string) {
    super(`payload too large: ${what} exceeds ${limitBytes} bytes`);
  }
}

export const isPayloadTooLarge = (err: unknown): err is PayloadTooLargeError => err instanceof PayloadTooLargeError;

/** Why a template cannot be used (for a 422), or undefined when it can. */
export function templateProblem(template: unknown): string | undefined {
  if (template === undefined || template === null) return undefined;
  let nodes = 0;
  const stack: Array<{ v: unknown; depth: number }> = [{ v: template, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (++nodes > TEMPLATE_MAX_NODES) return `payload_fields has more than ${TEMPLATE_MAX_NODES} fields`;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > TEMPLATE_MAX_DEPTH) return `payload_fields nests deeper than ${TEMPLATE_MAX_DEPTH} levels`;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push({ v: child, depth: depth + 1 });
  }
  return undefined;
}

/**
 * The payload for this context. A template deeper than the limit has its too-deep parts replaced
 * by null (such a template is refused before it is stored; see `templateProblem`). Throws
 * `PayloadTooLargeError` (and nothing else) when the payload would exceed `maxBytes`.
 */
export function resolvePayload(template: unknown, context: unknown, maxBytes: number = MAX_PAYLOAD_BYTES): unknown {
  const memo = new WeakMap<object, number>();
  if (template === undefined || template === null) {
    if (canonicalJsonLength(context, maxBytes, memo) > maxBytes) throw new PayloadTooLargeError(maxBytes, 'the delivery context');
    return context;
  }
  const budget = { left: VISIT_BUDGET };
  // The canonical length of what is built so far: matches, literals, and the template's own keys
  // and punctuation, so the total is exactly the length of the body.
  let used = 0;
  const add = (bytes: number, where: string): void => {
    used += bytes;
    if (used > maxBytes) throw new PayloadTooLargeError(maxBytes, `the payload resolved from payload_fields (at '${where.slice(0, 100)}')`);
  };
  const spend = (value: unknown, where: string): unknown => {
    add(canonicalJsonLength(value, maxBytes - used, memo), where);
    return value;
  };
  const walk = (node: unknown, depth: number): unknown => {
    if (typeof node === 'string') {
      if (node.startsWith('$')) return spend(jsonPath(context, node, budget), node);
      if (node.startsWith('/')) return spend(jsonPointer(context, node), node);
      return spend(node, node);
    }
    if (node === null || typeof node !== 'object') return spend(node, String(node));
    if (depth + 1 > TEMPLATE_MAX_DEPTH) return spend(null, 'null');
    if (Array.isArray(node)) {
      add(2, '[]');
      return node.map((item, i) => {
        add(i > 0 ? 1 : 0, ','); // the separator
        return walk(item, depth + 1);
      });
    }
    add(2, '{}');
    // fromEntries defines own properties: a template key `__proto__` stays a plain key.
    return Object.fromEntries(Object.entries(node).map(([k, v], i) => {
      add(canonicalJsonLength(k, maxBytes - used) + (i > 0 ? 2 : 1), k); // `"k":`, after a `,`
      return [k, walk(v, depth + 1)];
    }));
  };
  return walk(template, 0);
}

// ---- JSON Pointer (RFC 6901) ----

/** The value at `pointer` in `doc`, or null when absent or the pointer is malformed. */
export function jsonPointer(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  if (!pointer.startsWith('/') || pointer.length > MAX_PATH_LENGTH) return null;
  let cur: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    if (/~(?![01])/.test(raw)) return null;
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return null;
      const i = Number(token);
      if (i >= cur.length) return null;
      cur = cur[i];
    } else if (cur !== null && typeof cur === 'object') {
      if (!Object.hasOwn(cur, token)) return null;
      cur = (cur as Record<string, unknown>)[token];
    } else return null;
  }
  return cur === undefined ? null : cur;
}

// ---- JSONPath subset ----

type Selector = { kind: 'name'; name: string } | { kind: 'index'; index: number } | { kind: 'wild' };
interface Segment { descendant: boolean; selector: Selector }

/** The matches of `path` in `doc` folded as §9.6 says: none → null, one → it, several → a list. */
export function jsonPath(doc: unknown, path: string, budget: { left: number } = { left: VISIT_BUDGET }): unknown {
  const segments = parsePath(path);
  if (!segments) return null;
  let current: unknown[] = [doc];
  for (const seg of segments) {
    const next: unknown[] = [];
    let held = 0;
    for (const node of current) {
      if (seg.descendant) {
        // Pre-order, document order: the node itself, then its descendants.
        const stack: unknown[] = [node];
        while (stack.length > 0) {
          const n = stack.pop();
          if (--budget.left < 0) return null;
          select(n, seg.selector, next);
          const kids = children(n);
          for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
        }
      } else {
        if (--budget.left < 0) return null;
        select(node, seg.selector, next);
      }
      // A wildcard adds every child: the matches held count against the budget too.
      budget.left -= next.length - held;
      held = next.length;
      if (budget.left < 0) return null;
    }
    current = next;
    if (current.length === 0) return null;
  }
  if (current.length === 0) return null;
  return current.length === 1 ? current[0] : current;
}

function children(n: unknown): readonly unknown[] {
  if (Array.isArray(n)) return n;
  if (n !== null && typeof n === 'object') return Object.values(n);
  return [];
}

function select(node: unknown, sel: Selector, into: unknown[]): void {
  if (sel.kind === 'wild') {
    for (const c of children(node)) into.push(c);
  } else if (sel.kind === 'index') {
    if (!Array.isArray(node)) return;
    const i = sel.index < 0 ? node.length + sel.index : sel.index;
    if (i >= 0 && i < node.length) into.push(node[i]);
  } else if (node !== null && typeof node === 'object' && !Array.isArray(node) && Object.hasOwn(node, sel.name)) {
    into.push((node as Record<string, unknown>)[sel.name]);
  }
}

const NAME = /^[^.[\]\s'"*]+/;

/** Parses the supported subset; undefined when the path is anything else. */
export function parsePath(path: string): Segment[] | undefined {
  if (path.length > MAX_PATH_LENGTH || !path.startsWith('$')) return undefined;
  const segments: Segment[] = [];
  let i = 1;
  while (i < path.length) {
    if (segments.length >= MAX_SEGMENTS) return undefined;
    let descendant = false;
    let selector: Selector | undefined;
    if (path.startsWith('..', i)) {
      descendant = true;
      i += 2;
      if (path[i] === '[') {
        const r = bracket(path, i);
        if (!r) return undefined;
        [selector, i] = r;
      } else {
        const r = dotted(path, i);
        if (!r) return undefined;
        [selector, i] = r;
      }
    } else if (path[i] === '.') {
      const r = dotted(path, i + 1);
      if (!r) return undefined;
      [selector, i] = r;
    } else if (path[i] === '[') {
      const r = bracket(path, i);
      if (!r) return undefined;
      [selector, i] = r;
    } else return undefined;
    segments.push({ descendant, selector });
  }
  return segments;
}

function dotted(path: string, i: number): [Selector, number] | undefined {
  if (path[i] === '*') return [{ kind: 'wild' }, i + 1];
  const m = NAME.exec(path.slice(i, i + MAX_PATH_LENGTH));
  if (!m) return undefined;
  return [{ kind: 'name', name: m[0] }, i + m[0].length];
}

/** `[*]`, `[n]`, `['name']` or `["name"]` starting at `i` (the `[`). */
function bracket(path: string, i: number): [Selector, number] | undefined {
  let j = i + 1;
  while (path[j] === ' ') j++;
  let selector: Selector;
  const q = path[j];
  if (q === '*') {
    selector = { kind: 'wild' };
    j++;
  } else if (q === "'" || q === '"') {
    let name = '';
    j++;
    for (;;) {
      const c = path[j];
      if (c === undefined) return undefined;
      if (c === q) break;
      if (c === '\\') {
        const e = path[j + 1];
        if (e === undefined) return undefined;
        name += e;
        j += 2;
      } else {
        name += c;
        j++;
      }
    }
    j++;
    selector = { kind: 'name', name };
  } else {
    const m = /^-?\d{1,15}/.exec(path.slice(j, j + 17));
    if (!m) return undefined;
    selector = { kind: 'index', index: Number(m[0]) };
    j += m[0].length;
  }
  while (path[j] === ' ') j++;
  if (path[j] !== ']') return undefined;
  return [selector, j + 1];
}
