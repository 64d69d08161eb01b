// Prefix families (`gen_ai.prompt.N.…` → `ag.data.inputs.prompt.N.…`), matched on dot boundaries.
// Adapters test every attribute key of every span, so candidates are bucketed by first character:
// most keys are rejected by one array read, the rest compare against one or two prefixes.

type Entry = readonly [prefix: string, target: string];

export class PrefixMap {
  /** Entries indexed by the char code of the prefix's first character (ASCII only). */
  readonly byFirstChar: ReadonlyArray<readonly Entry[] | undefined>;

  constructor(entries: readonly Entry[]) {
    const buckets: Array<Entry[] | undefined> = new Array<Entry[] | undefined>(128).fill(undefined);
    for (const entry of entries) (buckets[entry[0].charCodeAt(0)] ??= []).push(entry);
    this.byFirstChar = buckets;
  }
}

/** The renamed key if `key` equals a prefix of the map or lies below one, else undefined. */
export function prefixTarget(key: string, map: PrefixMap): string | undefined {
  const candidates = map.byFirstChar[key.charCodeAt(0)];
  if (candidates === undefined) return undefined;
  for (const [prefix, target] of candidates) {
    if (key.startsWith(prefix)) {
      if (key.length === prefix.length) return target;
      if (key.charCodeAt(prefix.length) === 0x2e /* . */) return target + key.slice(prefix.length);
    }
  }
  return undefined;
}
