// Process-wide counters rendered in the Prometheus text format at GET /metrics. Deliberately tiny:
// monotonic counters are what the ingest benchmark and dashboards need (rates come from deltas).

const counters = new Map<string, { help: string; value: number }>();

export function counter(name: string, help: string): (n?: number) => void {
  if (!counters.has(name)) counters.set(name, { help, value: 0 });
  const c = counters.get(name)!;
  return (n = 1) => { c.value += n; };
}

const gauges = new Map<string, { help: string; read: () => number }>();

/** A value read when /metrics is rendered (the last registration of a name wins). */
export function gauge(name: string, help: string, read: () => number): void {
  gauges.set(name, { help, read });
}

export function renderMetrics(): string {
  const lines: string[] = [];
  for (const [name, c] of counters) {
    lines.push(`# HELP ${name} ${c.help}`, `# TYPE ${name} counter`, `${name} ${c.value}`);
  }
  for (const [name, g] of gauges) {
    const v = g.read();
    lines.push(`# HELP ${name} ${g.help}`, `# TYPE ${name} gauge`, `${name} ${Number.isFinite(v) ? v : 0}`);
  }
  const mem = process.memoryUsage();
  lines.push('# TYPE process_resident_memory_bytes gauge', `process_resident_memory_bytes ${mem.rss}`);
  return `${lines.join('\n')}\n`;
}
