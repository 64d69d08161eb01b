// What an artifact write stores, computed before any event (pure): headers as event text, the role
// flag an entity's routes force, a workflow revision's data and inferred flags (reference
// evaluations §2.7), and a testset's rows as content-addressed testcases plus the id list its
// revision keeps (§2.2).
import { randomBytes } from 'node:crypto';
import {
  inferRevisionFlags, normaliseRows, roleFlagOf, storedWorkflowData, testcaseId, type ArtifactEntity,
} from '@llm/account-model';
import type { TestcaseInput, WorkflowRevisionDataInput } from '@llm/contracts';
import { invalid } from '@llm/errors';
import type { ArtifactHeader, StoredTestcase } from '@llm/events';

type JsonMap = Record<string, unknown>;
export interface HeaderInput { name?: string | null | undefined; description?: string | null | undefined; flags?: JsonMap | null | undefined; tags?: JsonMap | null | undefined; meta?: JsonMap | null | undefined }

const json = (v: unknown): string => (v === undefined || v === null ? '' : JSON.stringify(v));

/** Twelve random hex digits: the reference's default slug of variants and revisions. */
export const hex12 = (): string => randomBytes(6).toString('hex');

export function eventHeader(h: HeaderInput): ArtifactHeader {
  return { name: h.name ?? '', description: h.description ?? '', tags_json: json(h.tags), meta_json: json(h.meta), flags_json: json(h.flags) };
}

/** The artifact/variant flags an entity stores: a workflow's role flags (the entity's own forced on), an environment's `is_guarded`; testsets none. */
export function roleFlags(entity: ArtifactEntity, sent: JsonMap | null | undefined): JsonMap | null {
  const role = roleFlagOf(entity);
  if (entity === 'testset') return null;
  if (entity === 'environment') return { is_guarded: sent?.is_guarded === true };
  const pick = (k: string): boolean => sent?.[k] === true;
  return {
    is_application: role === 'is_application' || pick('is_application'),
    is_evaluator: role === 'is_evaluator' || pick('is_evaluator'),
    is_snippet: pick('is_snippet'),
  };
}

/** A workflow revision's stored data and flags (roles: the sent ones with the entity's forced; the rest inferred). */
export function workflowRevision(entity: ArtifactEntity, slug: string, sent: WorkflowRevisionDataInput | null | undefined, sentFlags: JsonMap | null | undefined): { dataJson: string; flags: JsonMap } {
  const roles = roleFlags(entity, sentFlags) ?? {};
  // A skill keeps only its uri and parameters: its flags are those of what is stored.
  const data = sent ? storedWorkflowData(sent) : sent;
  const inferred = inferRevisionFlags({
    uri: data?.uri ?? null, url: data?.url ?? null, script: data?.script, slug,
    schemas: data?.schemas ?? null, requested: roles,
  });
  if (!inferred.ok) throw invalid(inferred.code, inferred.message);
  return { dataJson: data ? JSON.stringify(stripNulls(data)) : '', flags: { ...inferred.flags } };
}

function stripNulls(v: JsonMap): JsonMap {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined));
}

/** A testset's rows as stored: testcases (distinct ids) and the ordered id list a revision keeps. */
export interface TestsetContent { testcases: StoredTestcase[]; ids: string[] }

/**
 * Rows of a simple create/edit or a commit → testcases of `testsetId`. `normalise` (simple routes and
 * uploads) injects `testcase_dedup_id` and applies the limits; a direct commit stores rows as sent.
 */
export function testsetContent(testsetId: string, rows: readonly TestcaseInput[], opts: { normalise: boolean }): TestsetContent {
  let prepared = rows.map((r) => ({ ...r, data: r.data as JsonMap }));
  if (opts.normalise) {
    const n = normaliseRows(prepared);
    if (!n.ok) throw invalid(n.code, n.message);
    prepared = n.rows;
  }
  const byId = new Map<string, StoredTestcase>();
  const ids = prepared.map((r) => {
    const id = testcaseId(testsetId, r.data);
    if (!byId.has(id)) byId.set(id, { id, data_json: JSON.stringify(r.data), flags_json: json(r.flags), tags_json: json(r.tags), meta_json: json(r.meta) });
    return id;
  });
  return { testcases: [...byId.values()], ids };
}

/** Stored testcases in events of at most ~4 MiB each (the topic's record cap is larger; a testset may be 10 MiB). */
export function testcaseBatches(testcases: readonly StoredTestcase[], maxBytes = 4 * 1024 * 1024): StoredTestcase[][] {
  const out: StoredTestcase[][] = [];
  let batch: StoredTestcase[] = [];
  let size = 0;
  for (const t of testcases) {
    const n = Buffer.byteLength(t.data_json) + Buffer.byteLength(t.flags_json) + Buffer.byteLength(t.tags_json) + Buffer.byteLength(t.meta_json) + 64;
    if (batch.length > 0 && size + n > maxBytes) { out.push(batch); batch = []; size = 0; }
    batch.push(t); size += n;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}
