// The evaluation side (reference evaluations §2.3, §3): runs, scenarios, results and metrics on
// evaluations.v1, one stream per run. The command decides early with these rules and appends;
// projector-evaluations applies them to the ordered log; the query service reads through them.
export * from './evaluation-event.ts';
export * from './run/index.ts';
export { evaluationRejectionError, isEvaluationRejectionCode } from './presentation.ts';
export * from './metrics/specs.ts';
export * from './dispatch/queue.ts';
export * from './queue/index.ts';
