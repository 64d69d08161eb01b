// Runs the statements of packages/span-analytics on the span read model. The statements are built
// (and fully parameterized) by the package; this adapter only knows where the table is and how a
// read-model query runs (time limit, 503 on any failure).
import { paramValues, type Statement } from '@llm/span-analytics';
import type { ReadModel } from './read-model.ts';

export type AnalyticsRow = Record<string, unknown>;

export class AnalyticsReader {
  constructor(private readonly rm: ReadModel) {}

  /** `<db>.spans`, the table the statements read. */
  get table(): string {
    return this.rm.spans;
  }

  /** The project's retention bound's parameter (the statements' scope carries the predicate). */
  retention(projectId: string): ReturnType<ReadModel['retention']> {
    return this.rm.retention(projectId, 'spans');
  }

  rows(st: Statement): Promise<AnalyticsRow[]> {
    return this.rm.run<AnalyticsRow>(st.sql, paramValues(st.params));
  }
}
