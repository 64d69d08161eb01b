// The project aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadProjectState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { projectRules } from './rules.ts';
import { loadProjectState } from './reads.ts';
import { projectProject } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './reads.ts';
export * from './projects.ts';

export const project = aggregate(projectRules, { load: loadProjectState, project: projectProject });
