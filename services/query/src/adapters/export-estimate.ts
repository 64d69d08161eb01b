// How many records an export will hold, roughly, for the progress of whoever downloads it (the
// `X-Export-Estimated-Rows` header): one count over the matching rows without FINAL, so superseded
// versions not merged away yet count too (an upper bound for spans), and traces are counted by
// ClickHouse's approximate `uniq` (bounded memory whatever the window), within the project's retention.
import { RETAINED_SPANS_SQL } from '@llm/span-table';
import type { ReadModel } from '@llm/span-read';

export class ExportEstimator {
  constructor(private readonly rm: ReadModel) {}

  async estimate(projectId: string, q: { where: string; params: Record<string, unknown> }, focus: 'span' | 'trace'): Promise<number | undefined> {
    const what = focus === 'span' ? 'count()' : 'uniq(trace_id)';
    try {
      const [row] = await this.rm.run<{ n: string | number }>(
        `SELECT ${what} AS n FROM ${this.rm.spans} WHERE ${q.where} AND ${RETAINED_SPANS_SQL} AND is_deleted = 0`,
        { ...q.params, ...await this.rm.retention(projectId, 'spans') },
      );
      const n = Number(row?.n);
      return Number.isSafeInteger(n) ? n : undefined;
    } catch {
      // Only a progress hint: the export itself does not depend on it.
      return undefined;
    }
  }
}
