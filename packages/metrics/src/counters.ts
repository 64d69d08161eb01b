// Process-wide counters rendered in the Prometheus text format at GET /metrics. Deliberately tiny:
// monotonic counters are what the ingest benchmark and dashboards need (rates come from deltas).

const counters = new Map<string, { help: string; value: number }>();

export function counter(name: string, help: string): (n?: number) => void {
  if (!counters.has(name)) counters.set(name, { help, value: 0 });
  const c = counters.get(name)!;
  return (n = 1) => { c.value += n; };
}

export function renderMetrics(): string {
  const lines: string[] = [];
  for (const [name, c] of counters) {
    lines.push(`# HELP ${name} ${c.help}`, `# TYPE ${name} counter`, `${name} ${c.value}`);
  }
  const mem = process.memoryUsage();
  lines.push('# TYPE process_resident_memory_bytes gauge', `process_resident_memory_bytes ${mem.rss}`);
  return `${lines.join('\n')}\n`;
}
