// Testset uploads (reference evaluations §2.2): a CSV or JSON file (multipart `file`, `file_type`)
// becomes rows — as a new simple testset (`POST /simple/testsets/upload`), as the next revision of
// a simple testset (`POST /simple/testsets/{id}/upload`, header fields default to the stored ones),
// or committed on the variant of a revision (`POST /testsets/revisions/{id}/upload`). Rows are
// normalised and limited as on the simple routes; a file that cannot be read is a 400.
import type { RequestHandler } from 'express';
import { readRevision, revisionData, revisionView, readArtifact, readVariant, simpleAnswerOf } from '@llm/account-model';
import { TESTSET_ROW_LIMIT } from '@llm/contracts';
import { invalid, notFound } from '@llm/errors';
import { uuidv7 } from '@llm/events';
import { uuidParam, type Guards, type Handlers } from '@llm/http';
import { projectionLag } from '../../accounts/adapters/account-commands.ts';
import { readMultipartForm } from '../adapters/multipart-form.ts';
import { simpleArtifacts } from '../adapters/simple-artifacts.ts';
import { fileType, readTestsetFile } from '../domain/testset-files.ts';
import { hex12 } from '../domain/artifact-content.ts';
import type { ArtifactRouteDeps } from './simple-artifact-routes.ts';

/** The largest upload read: a testset holds at most 10 MiB of rows; the form around them adds little. */
const MAX_UPLOAD_BYTES = 12 * 1024 * 1024;

const jsonField = (v: string | undefined, name: string): Record<string, unknown> | undefined => {
  if (v === undefined || v === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(v);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch { /* answered below */ }
  throw invalid('testset_upload_field', `${name} must be a JSON object.`);
};

export function testsetFileRoutes(deps: ArtifactRouteDeps, guards: Guards<'edit'>): Handlers {
  const { pool, writes } = deps;
  const simple = simpleArtifacts('testset', deps);

  const rowsOf = async (req: Parameters<RequestHandler>[0], fallback: 'csv' | undefined) => {
    const form = await readMultipartForm(req, MAX_UPLOAD_BYTES);
    const type = fileType(form.fields.get('file_type'), fallback);
    if (!form.file) throw invalid('testset_file_missing', 'Send the testset as the multipart part `file`.');
    const rows = readTestsetFile(form.file.content, type);
    if (rows.length > TESTSET_ROW_LIMIT) throw invalid('testset_too_many_testcases', `Testset exceeds the maximum count of ${TESTSET_ROW_LIMIT} testcases per testset.`);
    return { form, rows, fileName: form.file.name };
  };

  const uploadNew: RequestHandler = async (req, res) => {
    const { form, rows, fileName } = await rowsOf(req, 'csv');
    const name = form.fields.get('testset_name') || fileName.replace(/\.[^.]*$/, '') || 'Testset';
    const slug = form.fields.get('testset_slug') || `${name.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'testset'}-${hex12()}`;
    const a = await simple.create(req, uuidv7(), {
      slug, name, description: form.fields.get('testset_description') ?? null,
      tags: jsonField(form.fields.get('testset_tags'), 'testset_tags') ?? null, meta: jsonField(form.fields.get('testset_meta'), 'testset_meta') ?? null,
      data: { testcases: rows },
    });
    res.json({ count: 1, testset: await simpleAnswerOf(pool, a, { revision: true }) });
  };

  const uploadEdit: RequestHandler = async (req, res) => {
    const id = uuidParam(req.params, 'testset_id');
    const a = await simple.w.mine(req, id);
    if (!a) throw notFound('testset_not_found', `Testset with ID '${id}' does not exist.`);
    const { rows } = await rowsOf(req, 'csv');
    const revisionId = await simple.edit(req, a, { data: { testcases: rows } });
    res.json({ count: 1, testset: { ...await simpleAnswerOf(pool, await simple.w.reread(req, id)), ...(revisionId ? { revision_id: revisionId } : {}) } });
  };

  const uploadRevision: RequestHandler = async (req, res) => {
    const id = uuidParam(req.params, 'testset_revision_id');
    const base = await readRevision(pool, req.scope.projectId, 'testset', { id });
    if (!base) throw notFound('testset_revision_not_found', `Testset revision ${id} not found.`);
    const { rows, form } = await rowsOf(req, 'csv');
    const slug = hex12();
    const content = await simple.w.revisionContent(req, base.artifact_id, slug, {}, { testcases: rows }, { normalise: true });
    const revisionId = await writes.commit(req, 'testset', base.artifact_id, base.variant_id, { slug, header: content.header, dataJson: content.dataJson, message: 'Uploaded testset revision' });
    const r = await readRevision(pool, req.scope.projectId, 'testset', { id: revisionId });
    const artifact = await readArtifact(pool, req.scope.projectId, 'testset', base.artifact_id);
    const variant = await readVariant(pool, req.scope.projectId, 'testset', { id: base.variant_id });
    if (!r || !artifact || !variant) throw projectionLag();
    const withRows = form.fields.get('include_testcases') !== 'false';
    res.json({ count: 1, testset_revision: revisionView('testset', r, await revisionData(pool, r, 'testset', { testcases: withRows }), { artifact, variant }) });
  };

  return {
    'simple.testsets.upload': [...guards.edit, uploadNew],
    'simple.testsets.upload_edit': [...guards.edit, uploadEdit],
    'testsets.revisions.upload': [...guards.edit, uploadRevision],
  };
}

