// A workflow commit's ordered delta (reference evaluations §2.7: `{operations:[{operation, target,
// value?, edits?, match_mode?}]}` on a `base_revision_id`): operations applied one after the other
// to a copy of the base revision's data. The reference names the operations and says failures are
// 422; what each one does is ours, written down here and in docs/decisions.md:
//   set           `value` at `target` (intermediate objects created; an array index must exist, or
//                 be the array's length to append);
//   merge         `value` (an object) deep-merged into the object at `target` (created if absent);
//   remove        the key or array item at `target` (which must exist);
//   edit_text     the string at `target` rewritten by `edits: [{old, new}]` in order; `match_mode`
//                 `first` (default: the first occurrence), `all` (every occurrence) or `exact`
//                 (exactly one occurrence); an `old` not found fails;
//   add_item      `value` appended to the array at `target` (created if absent);
//   replace_item  the array item at `target` (its last segment an index) replaced by `value`;
//   remove_item   the array item at `target` (its last segment an index) removed.
// `target` is a path of keys and array indices, `[]` being the data itself (set/merge only).
// Pure: the caller checks the result as data and decides "no change".
import type { WorkflowOperation } from '@llm/contracts';
import { deepMerge, hasOwnKey, isTree, ownValue, setOwn } from './json-tree.ts';

type Json = unknown;
type Container = Record<string, Json> | Json[];

/** Why an operation cannot apply: its position, a code and a message (a 422 on the commit). */
export interface DeltaFailure { index: number; code: string; message: string }
export type DeltaResult = { ok: true; data: Record<string, Json> } | { ok: false; failure: DeltaFailure };

class Failure extends Error {
  constructor(readonly code: string, message: string) { super(message); }
}

const show = (target: ReadonlyArray<string | number>): string => (target.length === 0 ? '(the data)' : target.map(String).join('.'));

/** The container holding the target's last segment; intermediate objects created when `create`. */
function parentOf(root: Record<string, Json>, target: ReadonlyArray<string | number>, create: boolean): Container {
  let node: Json = root;
  for (let i = 0; i < target.length - 1; i++) {
    const seg = target[i]!;
    if (Array.isArray(node) && typeof seg === 'number') {
      if (seg < 0 || seg >= node.length) throw new Failure('target_not_found', `No item ${seg} at ${show(target.slice(0, i))}.`);
      node = node[seg];
    } else if (isTree(node) && typeof seg === 'string') {
      if (!hasOwnKey(node, seg)) {
        if (!create) throw new Failure('target_not_found', `Nothing at ${show(target.slice(0, i + 1))}.`);
        setOwn(node, seg, {});
      }
      node = node[seg];
    } else {
      throw new Failure('target_type', `${show(target.slice(0, i))} is not ${typeof seg === 'number' ? 'an array' : 'an object'}.`);
    }
  }
  if (!Array.isArray(node) && !isTree(node)) throw new Failure('target_type', `${show(target.slice(0, -1))} is neither an object nor an array.`);
  return node;
}

function read(parent: Container, seg: string | number, target: ReadonlyArray<string | number>): Json {
  if (Array.isArray(parent) && typeof seg === 'number' && seg >= 0 && seg < parent.length) return parent[seg];
  if (isTree(parent) && typeof seg === 'string' && hasOwnKey(parent, seg)) return parent[seg];
  throw new Failure('target_not_found', `Nothing at ${show(target)}.`);
}

function write(parent: Container, seg: string | number, value: Json, target: ReadonlyArray<string | number>): void {
  if (Array.isArray(parent) && typeof seg === 'number') {
    if (seg < 0 || seg > parent.length) throw new Failure('target_not_found', `No item ${seg} at ${show(target.slice(0, -1))}.`);
    parent[seg] = value;
  } else if (isTree(parent) && typeof seg === 'string') {
    setOwn(parent, seg, value);
  } else {
    throw new Failure('target_type', `${show(target.slice(0, -1))} is not ${typeof seg === 'number' ? 'an array' : 'an object'}.`);
  }
}

function editText(text: string, edits: ReadonlyArray<{ old: string; new: string }>, mode: 'first' | 'all' | 'exact'): string {
  let out = text;
  for (const e of edits) {
    const n = e.old === '' ? 0 : out.split(e.old).length - 1;
    if (n === 0) throw new Failure('text_not_found', `The text ${JSON.stringify(e.old.slice(0, 80))} does not occur.`);
    if (mode === 'exact' && n !== 1) throw new Failure('text_ambiguous', `The text ${JSON.stringify(e.old.slice(0, 80))} occurs ${n} times; match_mode "exact" needs exactly one.`);
    out = mode === 'all' ? out.split(e.old).join(e.new) : out.replace(e.old, () => e.new);
  }
  return out;
}

function apply(data: Record<string, Json>, op: WorkflowOperation): Record<string, Json> {
  const target = op.target;
  const last = target[target.length - 1];
  if (target.length === 0) {
    if (op.operation === 'set') {
      if (!isTree(op.value)) throw new Failure('value_type', 'Setting the data itself needs an object value.');
      return structuredClone(op.value);
    }
    if (op.operation === 'merge') {
      if (!isTree(op.value)) throw new Failure('value_type', 'merge needs an object value.');
      return deepMerge(data, op.value);
    }
    throw new Failure('target_required', `${op.operation} needs a non-empty target.`);
  }
  const seg = last!;
  switch (op.operation) {
    case 'set':
      write(parentOf(data, target, true), seg, structuredClone(op.value ?? null), target);
      return data;
    case 'merge': {
      if (!isTree(op.value)) throw new Failure('value_type', 'merge needs an object value.');
      const parent = parentOf(data, target, true);
      const current = Array.isArray(parent) ? read(parent, seg, target) : typeof seg === 'string' ? ownValue(parent, seg) : undefined;
      if (current !== undefined && !isTree(current)) throw new Failure('target_type', `${show(target)} is not an object.`);
      write(parent, seg, deepMerge(current, structuredClone(op.value)), target);
      return data;
    }
    case 'remove': {
      const parent = parentOf(data, target, false);
      read(parent, seg, target);
      if (Array.isArray(parent)) parent.splice(seg as number, 1);
      else delete parent[seg as string];
      return data;
    }
    case 'edit_text': {
      const parent = parentOf(data, target, false);
      const current = read(parent, seg, target);
      if (typeof current !== 'string') throw new Failure('target_type', `${show(target)} is not text.`);
      if (!op.edits || op.edits.length === 0) throw new Failure('edits_required', 'edit_text needs edits.');
      write(parent, seg, editText(current, op.edits, op.match_mode ?? 'first'), target);
      return data;
    }
    case 'add_item': {
      const parent = parentOf(data, target, true);
      const current = Array.isArray(parent) ? read(parent, seg, target) : typeof seg === 'string' ? ownValue(parent, seg) : undefined;
      if (current !== undefined && !Array.isArray(current)) throw new Failure('target_type', `${show(target)} is not an array.`);
      write(parent, seg, [...(current ?? []), structuredClone(op.value ?? null)], target);
      return data;
    }
    case 'replace_item':
    case 'remove_item': {
      if (typeof seg !== 'number') throw new Failure('target_type', `${op.operation} needs a target ending in an item index.`);
      const parent = parentOf(data, target, false);
      if (!Array.isArray(parent)) throw new Failure('target_type', `${show(target.slice(0, -1))} is not an array.`);
      read(parent, seg, target);
      if (op.operation === 'replace_item') parent[seg] = structuredClone(op.value ?? null);
      else parent.splice(seg, 1);
      return data;
    }
    default:
      throw new Failure('unknown_operation', `Unknown operation ${JSON.stringify(op.operation)}.`);
  }
}

/** The base data with every operation applied in order; the first that cannot apply is the failure. */
export function applyOperations(base: Record<string, Json> | null, operations: readonly WorkflowOperation[]): DeltaResult {
  let data: Record<string, Json> = structuredClone(base ?? {});
  for (const [index, op] of operations.entries()) {
    try {
      data = apply(data, op);
    } catch (err) {
      if (err instanceof Failure) return { ok: false, failure: { index, code: err.code, message: `Operation ${index} (${op.operation} at ${show(op.target)}): ${err.message}` } };
      throw err;
    }
  }
  return { ok: true, data };
}
