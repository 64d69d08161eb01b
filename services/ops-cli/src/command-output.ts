// What every command returns: the document `--json` prints, and the text a person reads.

export interface CommandOutput {
  json: unknown;
  text: string;
}

/** Left-aligned columns, two spaces apart; the header row first. */
export function table(header: string[], rows: Array<Array<string | number>>): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}
