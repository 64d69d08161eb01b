// The queues of evaluation runs (reference evaluations §2.8, §3.5): their rules (decided on the run's
// stream), reads, projection, views and the scenario assignment.
export * from './rules.ts';
export * from './reads.ts';
export * from './projection.ts';
export * from './views.ts';
export * from './assignment.ts';
