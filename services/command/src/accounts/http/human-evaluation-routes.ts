// Human evaluations (reference accounts §12, compat §4) and the minimal applications, variants,
// revisions and testsets they read, created through the reference's simple routes (compat §4.2).
// Every write is one accounts event appended and awaited (read-your-writes): an application with its
// first variant and revisions 0 and 1 is one event, a testset with its rows is one, and an
// evaluation with its variant links and scenarios is one — a refused creation leaves nothing
// behind (the reference can leave an orphan evaluation). Everything is looked up in the caller's
// project only: another project's application or testset is unknown here (the reference looks an
// application up by id alone).
import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import {
  APPLICATION_NOT_FOUND, APPLICATION_VARIANT_NOT_FOUND, HUMAN_EVALUATION_APP_NOT_FOUND, HUMAN_EVALUATION_REVISION_MISMATCH, HUMAN_EVALUATION_TESTSET_NOT_FOUND,
  HUMAN_EVALUATION_VARIANT_NOT_FOUND, applicationAnswer, applicationVariantView, applicationsKey, evaluationUuid, evaluationsKey, parseUuid, readApplication,
  readApplicationRevision, readApplicationVariant, readTestcases, readTestset, refuse, testsetView, testsetsKey, type TestcaseRow,
} from '@llm/account-model';
import { applicationRevisionCommit, applicationVariantCreate, humanEvaluationCreate, simpleApplicationCreate, simpleTestsetCreate } from '@llm/contracts';
import { invalid, notFound } from '@llm/errors';
import { uuidv7, type EventPayloads } from '@llm/events';
import { RequestValidationError, validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { AccountCommands, AccountWrite } from '../adapters/account-commands.ts';
import type { AccountsEventType } from '../adapters/account-appender.ts';
import type { QuotaGate } from '../../quota/adapters/quota-gate.ts';

export interface HumanEvaluationRouteDeps {
  pool: Pool;
  commands: AccountCommands;
  /** The organization's `evaluations_run` quota: reserved before the evaluation is appended (§2.3). */
  quota: Pick<QuotaGate, 'evaluation'>;
}


const json = (v: unknown): string => (v === undefined || v === null ? '' : JSON.stringify(v));
const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** A body or path id that must be a UUID: anything else is a 422 naming the field, as a typed parameter. */
function uuidField(value: string, loc: Array<string | number>): string {
  const id = parseUuid(value);
  if (id === undefined) throw new RequestValidationError([{ loc, msg: 'value is not a valid uuid', type: 'uuid_parsing' }]);
  return id;
}
/** The 400 of a row that lacks an input (§12: the variant's inputs against the row's columns, minus correct_answer). */
function rowMismatch(inputs: string[], row: TestcaseRow): Error {
  const columns = Object.keys(row.data).filter((c) => c !== 'correct_answer');
  return invalid('human_evaluation_inputs_mismatch', [
    'Columns in the test set should match the names of the inputs in the variant.',
    `Inputs names in variant are: [${inputs.map((i) => `'${i}'`).join(', ')}]`,
    `while columns in test set are: [${columns.map((c) => `'${c}'`).join(', ')}]`,
  ].join('\n'));
}

const answerText = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

export function humanEvaluationRoutes(deps: HumanEvaluationRouteDeps, guards: Guards<'editApps' | 'createEvaluations'>): Handlers {
  const { pool, commands } = deps;

  /** A change in the caller's project, about the aggregate `aggregateId`. */
  const write = <T extends AccountsEventType>(type: T, key: string, payload: EventPayloads[T], aggregateId: string): AccountWrite<T> =>
    ({ type, key, payload, meta: { aggregateId } });

  const createApplication: RequestHandler = async (req, res) => {
    const a = validate(simpleApplicationCreate, req.body).application;
    const projectId = req.scope.projectId;
    const id = uuidv7();
    await commands.run(req, write('accounts.application.created', applicationsKey(projectId), {
      application: {
        application_id: id, project_id: projectId, slug: a.slug, name: a.name ?? '', description: a.description ?? '',
        tags_json: json(a.tags), meta_json: json(a.meta), flags_json: json(a.flags), data_json: json(a.data),
      },
      // The first variant's slug: 12 random hex characters (the reference's).
      variant_id: uuidv7(), variant_slug: randomBytes(6).toString('hex'), revision0_id: uuidv7(), revision_id: uuidv7(),
    }, `application:${id}`));
    const app = await readApplication(pool, projectId, id);
    if (!app) throw refuse('application_not_found', APPLICATION_NOT_FOUND);
    res.status(200).json({ count: 1, application: await applicationAnswer(pool, projectId, app) });
  };

  const createVariant: RequestHandler = async (req, res) => {
    const v = validate(applicationVariantCreate, req.body).application_variant;
    const projectId = req.scope.projectId;
    const appId = uuidField(v.application_id, ['body', 'application_variant', 'application_id']);
    if (!await readApplication(pool, projectId, appId)) throw refuse('application_not_found', APPLICATION_NOT_FOUND);
    const id = uuidv7();
    await commands.run(req, write('accounts.application.variant_created', applicationsKey(projectId), {
      variant_id: id, application_id: appId, project_id: projectId, slug: v.slug, name: v.name ?? '', flags_json: json(v.flags), tags_json: json(v.tags),
    }, `application:${appId}`));
    const row = await readApplicationVariant(pool, projectId, id);
    if (!row) throw refuse('application_variant_not_found', APPLICATION_VARIANT_NOT_FOUND);
    res.status(200).json({ count: 1, application_variant: applicationVariantView(row) });
  };

  const commitRevision: RequestHandler = async (req, res) => {
    const r = validate(applicationRevisionCommit, req.body).application_revision;
    const projectId = req.scope.projectId;
    const appId = uuidField(r.application_id, ['body', 'application_revision', 'application_id']);
    const variantId = uuidField(r.application_variant_id, ['body', 'application_revision', 'application_variant_id']);
    const id = uuidv7();
    // The next number is the variant's current one plus one; a concurrent commit that took it makes
    // the aggregate refuse ours, and we read again.
    const version = await commands.runAtVersion(req, { on: ['application_revision_changed'] }, async () => {
      const variant = await readApplicationVariant(pool, projectId, variantId);
      if (!variant || variant.application_id !== appId) throw refuse('application_variant_not_found', APPLICATION_VARIANT_NOT_FOUND);
      const next = variant.revision === null ? 0 : variant.revision + 1;
      const change = write('accounts.application.revision_committed', applicationsKey(projectId), {
        revision_id: id, variant_id: variantId, application_id: appId, project_id: projectId, slug: r.slug ?? '', message: r.message ?? '',
        data_json: json(r.data), version: next,
      }, `application:${appId}`);
      return { write: change, value: next };
    });
    const row = await readApplicationRevision(pool, projectId, variantId, version);
    res.status(200).json({
      count: 1,
      application_revision: {
        id, slug: row?.slug ?? null, version: String(version), message: row?.message ?? null, data: row?.data ?? null,
        application_id: appId, application_variant_id: variantId, created_at: iso(row?.created_at ?? null), created_by_id: row?.created_by_id ?? null,
      },
    });
  };

  const createTestset: RequestHandler = async (req, res) => {
    const t = validate(simpleTestsetCreate, req.body).testset;
    const projectId = req.scope.projectId;
    const id = uuidv7();
    await commands.run(req, write('accounts.testset.created', testsetsKey(projectId), {
      testset_id: id, project_id: projectId, slug: t.slug, name: t.name ?? '', description: t.description ?? '', tags_json: json(t.tags), meta_json: json(t.meta),
      variant_id: uuidv7(), revision_id: uuidv7(), testcases: t.data.testcases.map((c) => ({ testcase_id: uuidv7(), data_json: JSON.stringify(c.data) })),
    }, `testset:${id}`));
    const row = await readTestset(pool, projectId, id);
    if (!row) throw notFound('testset_not_found', HUMAN_EVALUATION_TESTSET_NOT_FOUND);
    res.status(200).json({ count: 1, testset: testsetView(row, await readTestcases(pool, id)) });
  };

  const createEvaluation: RequestHandler = async (req, res) => {
    const body = validate(humanEvaluationCreate, req.body);
    const projectId = req.scope.projectId;
    const appId = evaluationUuid(body.app_id);
    const testsetId = evaluationUuid(body.testset_id);
    const variantIds = body.variant_ids.map(evaluationUuid);
    if (!await readApplication(pool, projectId, appId)) throw notFound('app_not_found', HUMAN_EVALUATION_APP_NOT_FOUND);
    if (!await readTestset(pool, projectId, testsetId)) throw notFound('testset_not_found', HUMAN_EVALUATION_TESTSET_NOT_FOUND);
    const variants: Array<{ variant_id: string; revision_id: string }> = [];
    for (const variantId of variantIds) {
      const v = await readApplicationVariant(pool, projectId, variantId);
      if (!v || v.archived || v.application_id !== appId) throw refuse('human_evaluation_variant_not_found', HUMAN_EVALUATION_VARIANT_NOT_FOUND);
      const revision = v.revision === null ? undefined : await readApplicationRevision(pool, projectId, v.id, v.revision);
      if (!revision) throw refuse('human_evaluation_revision_mismatch', HUMAN_EVALUATION_REVISION_MISMATCH);
      variants.push({ variant_id: v.id, revision_id: revision.id });
    }
    const rows = await readTestcases(pool, testsetId);
    const scenarios = rows.map((row) => {
      const missing = body.inputs.some((name) => !Object.hasOwn(row.data, name));
      if (missing) throw rowMismatch(body.inputs, row);
      return {
        scenario_id: uuidv7(),
        inputs_json: JSON.stringify(body.inputs.map((name) => ({ input_name: name, input_value: row.data[name] }))),
        correct_answer: answerText(row.data.correct_answer),
      };
    });
    const id = uuidv7();
    // The aggregate decides again on the ordered log (a variant committed meanwhile: 400 mismatch).
    // One evaluation run of the organization's quota, reserved before the append and given back if
    // the evaluation is not recorded (refused by the aggregate, or the append failed).
    await deps.quota.evaluation(req.scope.organizationId, async () => await commands.run(req, write('accounts.human_evaluation.created', evaluationsKey(projectId), {
      evaluation_id: id, project_id: projectId, app_id: appId, evaluation_type: body.evaluation_type, status: body.status, testset_id: testsetId,
      variants, scenarios,
    }, `human_evaluation:${id}`)));
    res.status(200).json({ id, variant_ids: variants.map((v) => v.variant_id), app_id: appId, status: body.status, evaluation_type: body.evaluation_type });
  };

  return {
    'applications.simple.create': [...guards.editApps, createApplication],
    'applications.variants.create': [...guards.editApps, createVariant],
    'applications.revisions.commit': [...guards.editApps, commitRevision],
    'testsets.simple.create': [...guards.editApps, createTestset],
    'human_evaluations.create': [...guards.createEvaluations, createEvaluation],
  };
}
