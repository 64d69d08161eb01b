// UUIDs as clients spell them: hyphens or not, braces, `urn:uuid:`, any case.

/** A UUID in any usual spelling, as its canonical lowercase form; undefined when it is not one. */
export function parseUuid(s: string): string | undefined {
  const hex = s.trim().toLowerCase().replace(/^urn:uuid:/, '').replace(/^\{(.*)\}$/, '$1').replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
