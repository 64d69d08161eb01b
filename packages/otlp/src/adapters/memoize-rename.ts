// Renamed keys (`llm.input_messages.0.message.role` → `ag.data.inputs.prompt.0.role`) are built by
// string operations; doing that per span also makes every output key a fresh string that V8 must
// hash and internalize on each property store. Memoised, a source key maps to the same target
// string object span after span.

/** Keys are client-controlled: the memo is bounded and simply restarts when full. */
const LIMIT = 10_000;

export function memoizeRename(rename: (key: string) => string | undefined): (key: string) => string | undefined {
  const memo = new Map<string, string | null>();
  return (key) => {
    let target = memo.get(key);
    if (target === undefined) {
      target = rename(key) ?? null;
      if (memo.size >= LIMIT) memo.clear();
      memo.set(key, target);
    }
    return target ?? undefined;
  };
}
