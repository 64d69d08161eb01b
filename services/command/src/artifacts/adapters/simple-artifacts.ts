// The simple surface's two writes (reference evaluations §2.2, §2.5–§2.7), shared by the JSON routes
// and the file uploads: create = the artifact with one variant and its revisions 0 (empty, "Initial
// commit") and 1 (the data) in one event, a testset's rows stored first; edit = the header with the
// fields sent over the stored ones (one event per level, only when it changed), then a revision
// when the data or the header changed (data left out keeps the head's).
import type { Request } from 'express';
import { hydratedEvaluatorData, readHead, revisionData, type ArtifactEntity, type ArtifactRow } from '@llm/account-model';
import { uuidv7 } from '@llm/events';
import type { Pool } from '@llm/postgres';
import type { ArtifactWrites } from './artifact-writes.ts';
import { entityWrites, sameHeader, storedHeader, type EntityWrites } from './entity-writes.ts';
import { eventHeader, hex12, type HeaderInput } from '../domain/artifact-content.ts';

export interface SimpleArtifacts {
  w: EntityWrites;
  create(req: Request, id: string, body: HeaderInput & { slug: string; data?: unknown }): Promise<ArtifactRow>;
  /** Returns the head revision's id after the edit. */
  edit(req: Request, a: ArtifactRow, body: HeaderInput & { data?: unknown }): Promise<string | undefined>;
}

export function simpleArtifacts(entity: ArtifactEntity, deps: { pool: Pool; writes: ArtifactWrites }): SimpleArtifacts {
  const { pool, writes } = deps;
  const w = entityWrites(entity, deps);
  return {
    w,
    async create(req, id, body) {
      const revisionSlug = hex12();
      const data = entity === 'evaluator' ? hydrated(body.data) : body.data;
      const v1 = await w.revisionContent(req, id, revisionSlug, body, data, { normalise: true });
      await writes.create(req, entity, {
        id, slug: body.slug, header: w.header(body),
        variant: {
          id: uuidv7(), header: w.header(body),
          revisions: [
            { id: uuidv7(), header: eventHeader({}), dataJson: '', message: 'Initial commit' },
            { id: uuidv7(), slug: revisionSlug, header: v1.header, dataJson: v1.dataJson, message: '' },
          ],
        },
      });
      return w.reread(req, id);
    },
    async edit(req, a, body) {
      const head = await readHead(pool, a);
      // Fields left out keep what is stored (the reference nulls them, a [quirk]).
      const merged: HeaderInput = w.merged(a, body);
      const header = w.header(merged);
      const same = sameHeader(storedHeader(a), header);
      if (!same) await writes.edit(req, entity, a.id, header);
      if (head.variant && !same) await writes.editVariant(req, entity, a.id, head.variant.id, header);
      if (!head.variant) return head.revision?.id;
      const data = body.data !== undefined && body.data !== null ? body.data : head.revision ? await revisionData(pool, head.revision, w.family, { testcases: false }) : null;
      const slug = hex12();
      const content = await w.revisionContent(req, a.id, slug, merged, data, { normalise: w.family === 'testset' });
      const unchanged = same && head.revision && JSON.stringify(head.revision.data ?? null) === (content.dataJson === '' ? 'null' : JSON.stringify(JSON.parse(content.dataJson)));
      if (unchanged) return head.revision?.id;
      return writes.commit(req, entity, a.id, head.variant.id, { slug, header: content.header, dataJson: content.dataJson, message: '' });
    },
  };
}

type JsonMap = Record<string, unknown>;
const map = (v: unknown): JsonMap => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as JsonMap : {});

/**
 * A simple evaluator's data on a catalog template's URI (`agenta:builtin:<key>:v0`) starts from the
 * template (§2.5): its parameter defaults and schemas, with what was sent over them.
 */
function hydrated(data: unknown): unknown {
  const sent = map(data);
  const base = typeof sent.uri === 'string' ? hydratedEvaluatorData(sent.uri) : undefined;
  if (!base) return data;
  return {
    ...sent,
    parameters: { ...base.parameters, ...map(sent.parameters) },
    schemas: { ...base.schemas, ...map(sent.schemas) },
  };
}
