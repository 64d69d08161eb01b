// Tree-form payloads (`{<name>: Node | Node[]}` with children under `spans`) → a flat span list.
// A child without its own parent_id gets its tree parent's span_id: nesting means parenthood
// (the reference makes such a node another root, which loses the structure the client sent).
import type { RawSpan } from '@llm/span-model';
import type { SpanNodeInput } from '@llm/contracts';

export function flattenTree(tree: Record<string, SpanNodeInput | SpanNodeInput[]> | null | undefined, parentId?: string): RawSpan[] {
  const out: RawSpan[] = [];
  if (!tree) return out;
  for (const [name, entry] of Object.entries(tree)) {
    for (const node of Array.isArray(entry) ? entry : [entry]) {
      const { spans: children, ...span } = node;
      const raw = { ...span, span_name: span.span_name ?? name } as RawSpan;
      if (!raw.parent_id && parentId) raw.parent_id = parentId;
      out.push(raw);
      if (children) out.push(...flattenTree(children, span.span_id));
    }
  }
  return out;
}

/** Top-level nodes of a tree (the root rule of the canonical create/edit endpoints). */
export function topLevel(tree: Record<string, SpanNodeInput | SpanNodeInput[]> | null | undefined): SpanNodeInput[] {
  if (!tree) return [];
  return Object.values(tree).flatMap((e) => (Array.isArray(e) ? e : [e]));
}
