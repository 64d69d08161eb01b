// The one Prometheus registry of the process, rendered at GET /metrics. A registry of our own (not
// prom-client's global one) so a library that registers its own metrics cannot clash with ours.
// Process metrics (CPU, memory, heap, GC, event-loop lag, handles) are prom-client's defaults under
// their standard names — no prefix, like every other metric here — so stock Node.js dashboards and
// alerts work unchanged; `process_resident_memory_bytes` keeps the name /metrics always had.
import { Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** The content type of `renderMetrics()` (Prometheus text exposition format 0.0.4). */
export const METRICS_CONTENT_TYPE: string = registry.contentType;

/** Every metric of the process in the Prometheus text format (collectors run now). */
export function renderMetrics(): Promise<string> {
  return registry.metrics();
}
