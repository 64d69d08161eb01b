// What every artifact write route of one entity needs before and after its events: the entity's
// artifacts in the caller's project (applications and evaluators are workflows with their role
// flag), the header it stores (role flags forced), a revision's stored content (a testset's rows
// stored first as testcases; a workflow's data checked and its flags inferred), and a header edit
// where fields left out keep their stored value.
import type { Request } from 'express';
import { familyOf, ofEntity, readArtifact, type ArtifactEntity, type ArtifactFamily, type ArtifactHeaderRow, type ArtifactRow } from '@llm/account-model';
import type { TestcaseInput, WorkflowRevisionDataInput } from '@llm/contracts';
import type { ArtifactHeader } from '@llm/events';
import type { Pool } from '@llm/postgres';
import { projectionLag } from '../../accounts/adapters/account-commands.ts';
import type { ArtifactWrites } from './artifact-writes.ts';
import { eventHeader, roleFlags, testsetContent, workflowRevision, type HeaderInput } from '../domain/artifact-content.ts';

type JsonMap = Record<string, unknown>;
const record = (v: unknown): JsonMap => (typeof v === 'object' && v !== null ? v as JsonMap : {});
/** A stored `meta` as a header takes it (only an object is one). */
export const metaOf = (m: unknown): JsonMap | null => (typeof m === 'object' && m !== null && !Array.isArray(m) ? m as JsonMap : null);

export interface EntityWrites {
  entity: ArtifactEntity;
  family: ArtifactFamily;
  /** The entity's artifact in the caller's project, or undefined. */
  mine(req: Request, id: string): Promise<ArtifactRow | undefined>;
  /** The artifact after a write (a 503 projection_lag if it is not visible yet). */
  reread(req: Request, id: string): Promise<ArtifactRow>;
  /** The artifact or variant header as stored: a workflow entity's role flags forced; testsets keep no flags. */
  header(h: HeaderInput): ArtifactHeader;
  /** The stored header with the sent fields over it (fields left out keep their value). */
  merged(stored: ArtifactHeaderRow, sent: HeaderInput): HeaderInput;
  /** A revision's stored header and data (testset rows are stored as testcases first). */
  revisionContent(req: Request, artifactId: string, slug: string, h: HeaderInput, data: unknown, opts: { normalise: boolean }): Promise<{ header: ArtifactHeader; dataJson: string }>;
}

export function entityWrites(entity: ArtifactEntity, deps: { pool: Pool; writes: ArtifactWrites }): EntityWrites {
  const family = familyOf(entity);
  const mine = async (req: Request, id: string): Promise<ArtifactRow | undefined> => {
    const a = await readArtifact(deps.pool, req.scope.projectId, family, id);
    return a && ofEntity(a, entity) ? a : undefined;
  };
  return {
    entity, family, mine,
    async reread(req, id) {
      const a = await mine(req, id);
      if (!a) throw projectionLag();
      return a;
    },
    header: (h) => eventHeader({ ...h, flags: roleFlags(entity, h.flags) }),
    merged: (stored, sent) => ({
      name: sent.name !== undefined ? sent.name : stored.name,
      description: sent.description !== undefined ? sent.description : stored.description,
      flags: sent.flags ?? stored.flags,
      tags: sent.tags !== undefined ? sent.tags : stored.tags,
      meta: sent.meta !== undefined ? sent.meta : metaOf(stored.meta),
    }),
    async revisionContent(req, artifactId, slug, h, data, opts) {
      if (family === 'testset') {
        const d = record(data);
        const rows = (d.testcases as TestcaseInput[] | null | undefined) ?? null;
        const ids = (d.testcase_ids as string[] | null | undefined) ?? null;
        const header = eventHeader({ ...h, flags: null });
        if (rows) {
          const content = testsetContent(artifactId, rows, opts);
          await deps.writes.storeTestcases(req, artifactId, content.testcases);
          return { header, dataJson: JSON.stringify({ testcase_ids: content.ids }) };
        }
        return { header, dataJson: ids ? JSON.stringify({ testcase_ids: ids }) : '' };
      }
      if (family === 'environment') {
        return { header: eventHeader({ ...h, flags: roleFlags(entity, h.flags) }), dataJson: data ? JSON.stringify(data) : '' };
      }
      const w = workflowRevision(entity, slug, (data ?? null) as WorkflowRevisionDataInput | null, h.flags);
      return { header: eventHeader({ ...h, flags: w.flags }), dataJson: w.dataJson };
    },
  };
}

/** Whether a header edit changes anything (no event when it does not). */
export const sameHeader = (a: ArtifactHeader, b: ArtifactHeader): boolean => JSON.stringify(a) === JSON.stringify(b);
/** A stored row's header as event text. */
export const storedHeader = (r: ArtifactHeaderRow): ArtifactHeader =>
  eventHeader({ name: r.name, description: r.description, flags: r.flags, tags: r.tags, meta: metaOf(r.meta) });
