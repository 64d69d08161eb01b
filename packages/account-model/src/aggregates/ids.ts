// Ids as the rules compare them: a UUID names the same row whatever the case of its hex digits (the
// readers look rows up as `uuid`, which ignores case), so the rules must ignore it too.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in its canonical spelling (any case). */
export const isUuid = (s: string): boolean => UUID.test(s);

export const sameId = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** A UUID's 32 hex digits, lowercase (what `replace(id::text, '-', '')` gives in SQL). */
export const idHex = (id: string): string => id.replace(/-/g, '').toLowerCase();
