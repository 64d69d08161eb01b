// The evaluator an annotation is judged by (reference evaluations §2.1): resolved from its
// `evaluator`, `evaluator_variant` and `evaluator_revision` references in the caller's project, or,
// when none names one that exists, created there as a simple evaluator — slug from the reference
// (else 12 random hex), `agenta:custom:feedback:v0`, outputs schema inferred from the annotation.
import type { Request } from 'express';
import { resolveRevision, type Resolved } from '@llm/account-model';
import type { ArtifactRef } from '@llm/contracts';
import { invalid } from '@llm/errors';
import { uuidv7 } from '@llm/events';
import type { Pool } from '@llm/postgres';
import type { ArtifactWrites } from '../../artifacts/adapters/artifact-writes.ts';
import { entityWrites } from '../../artifacts/adapters/entity-writes.ts';
import { hex12 } from '../../artifacts/domain/artifact-content.ts';
import { projectionLag } from '../../accounts/adapters/account-commands.ts';
import { inferredOutputsSchema } from '../domain/annotation-outputs.ts';

type Refs = Record<string, { id?: string | null | undefined; slug?: string | null | undefined; version?: string | number | null | undefined }>;

const ref = (r: Refs[string] | undefined): ArtifactRef | undefined =>
  r ? { id: r.id ?? null, slug: r.slug ?? null, version: r.version == null ? null : String(r.version) } : undefined;

export class AnnotationEvaluators {
  constructor(private readonly deps: { pool: Pool; writes: ArtifactWrites }) {}

  /** The evaluator revision that judges the annotation (created when its references name none). */
  async resolve(req: Request, references: Refs, data: Record<string, unknown>): Promise<Resolved> {
    const refs = { artifact: ref(references.evaluator), variant: ref(references.evaluator_variant), revision: ref(references.evaluator_revision) };
    const found = await resolveRevision(this.deps.pool, req.scope.projectId, 'evaluator', refs);
    if (found.status === 'invalid') throw invalid('refs_invalid', found.message);
    if (found.status === 'found') return found.found;
    const slug = refs.artifact?.slug ?? hex12();
    const w = entityWrites('evaluator', this.deps);
    const id = uuidv7();
    const revisionSlug = hex12();
    const content = await w.revisionContent(req, id, revisionSlug, { name: slug }, {
      uri: 'agenta:custom:feedback:v0', schemas: { outputs: inferredOutputsSchema(data) },
    }, { normalise: false });
    await this.deps.writes.create(req, 'evaluator', {
      id, slug, header: w.header({ name: slug }),
      variant: {
        id: uuidv7(), header: w.header({ name: slug }),
        revisions: [
          { id: uuidv7(), header: w.header({}), dataJson: '', message: 'Initial commit' },
          { id: uuidv7(), slug: revisionSlug, header: content.header, dataJson: content.dataJson, message: '' },
        ],
      },
    });
    const created = await resolveRevision(this.deps.pool, req.scope.projectId, 'evaluator', { artifact: { id, slug: null, version: null } });
    if (created.status !== 'found') throw projectionLag();
    return created.found;
  }
}
