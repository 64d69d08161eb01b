// One evaluation run's stream: its rules (rules.ts), its state as the projection holds it and the
// reads (reads.ts), the SQL of its facts (projection.ts) and how its rows read (views.ts).
export * from './rules.ts';
export * from './reads.ts';
export * from './projection.ts';
export * from './views.ts';
export * from './flags.ts';
export * from './graph.ts';
export * from './plan.ts';
