// Runs the statements of packages/span-analytics on the span read model. The statements are built
// (and fully parameterized) by the package; this adapter only knows where the table is and how a
// read-model query runs (time limit, 503 on any failure).
import { paramValues, type Focus, type Statement } from '@llm/span-analytics';
import type { ReadModel } from '@llm/span-read';

export type AnalyticsRow = Record<string, unknown>;

export class AnalyticsReader {
  constructor(private readonly rm: ReadModel) {}

  /**
   * The table a request's statements read: trace focus summarises root spans only, which the roots
   * table holds alone (a tenth of the rows; same columns and versions); span focus reads every span.
   */
  tableFor(focus: Focus): string {
    return focus === 'trace' ? this.rm.roots : this.rm.spans;
  }

  /** The project's retention bound's parameter (the statements' scope carries the predicate). */
  retention(projectId: string): ReturnType<ReadModel['retention']> {
    return this.rm.retention(projectId, 'spans');
  }

  rows(st: Statement): Promise<AnalyticsRow[]> {
    return this.rm.run<AnalyticsRow>(st.sql, paramValues(st.params));
  }
}
