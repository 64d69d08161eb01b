// The humanEvaluation aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadHumanEvaluationState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { humanEvaluationRules } from './rules.ts';
import { loadHumanEvaluationState } from './reads.ts';
import { projectHumanEvaluation } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './views.ts';
export * from './reads.ts';
export * from './subjects.ts';

export const humanEvaluation = aggregate(humanEvaluationRules, { load: loadHumanEvaluationState, project: projectHumanEvaluation });
