// Agenta's own `ag.*` attributes (what the Agenta SDK emits). Reference §3.4 (5). Runs last, so
// what a client states explicitly in ag.* wins over what the other adapters inferred.

import type { JsonValue } from '@llm/span-model';
import { toSpanType } from '../span-type.ts';
import { parseJson } from './json-values.ts';
import { memoizeRename } from './memoize-rename.ts';
import {
  NO_ATTRIBUTES,
  NO_OUTPUT,
  type AdapterOutput,
  type SemconvAdapter,
  type SemconvAdapterDefinition,
} from './semconv-adapter.ts';

const JSON_TAG = '@ag.type=json:';
const NONE_TAG = '@ag.type=none:';

/** Namespaces whose values the SDK may tag; others (tags, references, exception …) pass through raw. */
const DECODED_NAMESPACES: ReadonlySet<string> = new Set([
  'data', 'metrics', 'flags', 'meta', 'refs', 'type', 'session', 'user', 'agent',
]);

/** Legacy reference keys, after `ag.refs.*` has become `ag.references.*`. */
const LEGACY_REFERENCES: ReadonlyMap<string, string> = new Map([
  ['ag.references.variant.id', 'ag.references.application_variant.id'],
  ['ag.references.variant.slug', 'ag.references.application_variant.slug'],
  ['ag.references.variant.version', 'ag.references.application_revision.version'],
  ['ag.references.environment.version', 'ag.references.environment_revision.version'],
]);

/** Legacy metric spellings: unit = this span only, acc = accumulated over the subtree. */
const LEGACY_METRICS: ReadonlyArray<readonly [string, string]> = [
  ['ag.metrics.unit.tokens', 'ag.metrics.tokens.incremental'],
  ['ag.metrics.unit.costs', 'ag.metrics.costs.incremental'],
  ['ag.metrics.acc.tokens', 'ag.metrics.tokens.cumulative'],
  ['ag.metrics.acc.costs', 'ag.metrics.costs.cumulative'],
];

/** The server recomputes durations; the SDK's accumulated one would only go to ag.unsupported. */
const DROPPED = 'ag.metrics.acc.duration.total';

/** `ag.<namespace>.…` → namespace. */
const namespaceOf = memoizeRename((key) => {
  const dot = key.indexOf('.', 3);
  return dot < 0 ? key.slice(3) : key.slice(3, dot);
}) as (key: string) => string;

/** Current spelling of a legacy `ag.refs.*` / `ag.metrics.unit|acc.*` key; undefined if current. */
const renamed = memoizeRename((key) => {
  if (key.startsWith('ag.refs')) {
    const references = `ag.references${key.slice('ag.refs'.length)}`;
    return LEGACY_REFERENCES.get(references) ?? references;
  }
  for (const [legacy, current] of LEGACY_METRICS) {
    if (key === legacy) return current;
    if (key.startsWith(legacy) && key.charCodeAt(legacy.length) === 0x2e) return current + key.slice(legacy.length);
  }
  return undefined;
});

export const agentaDefaultAdapter: SemconvAdapter = (attrs, { keys }) => {
  let out: Map<string, JsonValue> | undefined;
  let removes: string[] | undefined;
  let explicitType: string | undefined;
  let nodeType: string | undefined;
  for (const key of keys) {
    if (!key.startsWith('ag.')) continue;
    const raw = attrs[key] as JsonValue;
    const namespace = namespaceOf(key);
    if (namespace === 'references') {
      const legacy = LEGACY_REFERENCES.get(key);
      if (legacy !== undefined) {
        (removes ??= []).push(key);
        (out ??= new Map()).set(legacy, raw);
      }
      continue;
    }
    if (!DECODED_NAMESPACES.has(namespace)) continue;
    const value = decodeTagged(raw);

    if (key === DROPPED) {
      (removes ??= []).push(key);
      continue;
    }
    if (key === 'ag.type.span') explicitType = toSpanType(value);
    else if (key === 'ag.type.node') {
      nodeType = toSpanType(value);
      // A valid node type is consumed into ag.type.span; an invalid one stays and is quarantined
      // by span cleaning (ag.unsupported.type.node) instead of vanishing.
      if (nodeType !== undefined) (removes ??= []).push(key);
      continue;
    }
    const target = renamed(key) ?? key;
    if (target !== key) (removes ??= []).push(key);
    // Written even when unchanged: an explicit ag.* attribute must win over what an earlier
    // adapter derived for the same key.
    (out ??= new Map()).set(target, value);
  }
  const spanType = explicitType ?? nodeType;
  if (out === undefined && removes === undefined && spanType === undefined) return NO_OUTPUT;
  const result: { -readonly [K in keyof AdapterOutput]: AdapterOutput[K] } = { attributes: out ?? NO_ATTRIBUTES };
  if (spanType !== undefined) result.spanType = spanType;
  if (removes !== undefined) result.removes = removes;
  return result;
};

export const agentaDefault: SemconvAdapterDefinition = {
  name: 'agenta',
  handlesKey: (key) => key.startsWith('ag.'),
  adapt: agentaDefaultAdapter,
};

/**
 * `@ag.type=json:<json>` → the parsed value, `@ag.type=none:` → null. A tag followed by invalid JSON
 * is kept as the original string: upstream raises there and loses every ag.* of the span.
 */
function decodeTagged(value: JsonValue): JsonValue {
  if (typeof value !== 'string' || value.charCodeAt(0) !== 0x40 /* @ */) return value;
  if (value === NONE_TAG) return null;
  if (value.startsWith(JSON_TAG)) {
    const parsed = parseJson(value.slice(JSON_TAG.length));
    if (parsed !== undefined) return parsed;
  }
  return value;
}
