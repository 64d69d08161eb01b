// Testset downloads (reference evaluations §2.2): a revision's rows (or a simple testset's latest)
// as a CSV or JSON attachment — the data columns plus `__id__` and `__dedup_id__`; CSV columns
// sorted, columns empty in every row dropped, values that are not text written as JSON.
import type { Request, RequestHandler, Response } from 'express';
import { readArtifact, readHead, readRevision, readTestcasesByIds, type ArtifactRevisionRow } from '@llm/account-model';
import { invalid, notFound } from '@llm/errors';
import { uuidParam, type Guards, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { csvField } from '../domain/export-encoders.ts';

type Row = Record<string, unknown>;

const text = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** The rows as the file holds them: data columns, the id and the dedup id. */
function fileRows(testcases: Array<{ id: string; data: Row }>): Row[] {
  return testcases.map((t) => {
    const { testcase_dedup_id: dedup, ...data } = t.data;
    return { ...data, __id__: t.id, __dedup_id__: dedup ?? null };
  });
}

function csvOf(rows: Row[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((c) => rows.some((r) => text(r[c]) !== '')).sort();
  return [columns.map(csvField).join(','), ...rows.map((r) => columns.map((c) => csvField(text(r[c]))).join(','))].join('\r\n') + '\r\n';
}

export function testsetDownloadRoutes(deps: { pool: Pool }, guards: Guards<'view'>): Handlers {
  const { pool } = deps;

  const send = async (req: Request, res: Response, r: ArtifactRevisionRow, type: string, fallbackName: string): Promise<void> => {
    const ids = Array.isArray(r.data?.testcase_ids) ? r.data.testcase_ids.filter((x): x is string => typeof x === 'string') : [];
    const rows = fileRows(await readTestcasesByIds(pool, r.artifact_id, ids));
    const requested = typeof req.query.file_name === 'string' && req.query.file_name !== '' ? req.query.file_name : fallbackName;
    const name = `${requested.replace(/[^A-Za-z0-9._ -]/g, '_').replace(/\.(csv|json)$/i, '')}.${type}`;
    res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
    if (type === 'json') res.type('application/json').send(JSON.stringify(rows));
    else res.type('text/csv').send(csvOf(rows));
  };
  const typeOf = (v: unknown, fallback: string | undefined): string => {
    const t = typeof v === 'string' && v !== '' ? v.toLowerCase() : fallback;
    if (t !== 'csv' && t !== 'json') throw invalid('testset_file_type', "Invalid file type. Supported types are 'csv' and 'json'.");
    return t;
  };

  const downloadRevision: RequestHandler = async (req, res) => {
    const id = uuidParam(req.params, 'testset_revision_id');
    const type = typeOf(req.query.file_type, 'csv');
    const r = await readRevision(pool, req.scope.projectId, 'testset', { id });
    if (!r) throw notFound('testset_revision_not_found', 'Testset revision not found. Please check the revision_id and try again.');
    await send(req, res, r, type, `revision_${id}`);
  };

  const downloadSimple: RequestHandler = async (req, res) => {
    const id = uuidParam(req.params, 'testset_id');
    const type = typeOf(req.query.file_type, undefined);
    const a = await readArtifact(pool, req.scope.projectId, 'testset', id);
    const head = a && await readHead(pool, a);
    if (!a || !head?.revision) throw notFound('testset_not_found', `Testset with ID '${id}' does not exist.`);
    await send(req, res, head.revision, type, a.name ?? a.slug);
  };

  return {
    'testsets.revisions.download': [...guards.view, downloadRevision],
    'simple.testsets.download': [...guards.view, downloadSimple],
  };
}
