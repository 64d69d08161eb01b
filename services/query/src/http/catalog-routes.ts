// The workflow catalogs (reference evaluations §2.5, §2.7): static templates and their presets for
// evaluators, applications and workflows, the shared registry of `x-ag-type` types, and the code
// harnesses (workflows). Authentication only; unknown keys answer `{count: 0}` (types and harnesses
// by key: the reference's 404), and `GET /simple/evaluators/templates` is the legacy list.
import type { RequestHandler } from 'express';
import {
  CATALOG_HARNESSES, CATALOG_TYPES, catalogHarness, catalogPreset, catalogPresets, catalogTemplate, catalogTemplates, catalogType, type CatalogRole,
} from '@llm/account-model';
import type { RouteId } from '@llm/contracts';
import { notFound } from '@llm/errors';
import type { Guards, Handlers } from '@llm/http';

const archivedToo = (v: unknown): boolean => v === 'true' || v === '1';
const param = (v: unknown): string => (typeof v === 'string' ? v : '');

function roleRoutes(role: CatalogRole, plural: string): Record<string, RequestHandler> {
  return {
    [`${plural}.catalog.types`]: (_req, res) => { res.json({ count: CATALOG_TYPES.length, types: CATALOG_TYPES }); },
    [`${plural}.catalog.templates`]: (req, res) => {
      const templates = catalogTemplates(role, archivedToo(req.query.include_archived));
      res.json({ count: templates.length, templates });
    },
    [`${plural}.catalog.templates.fetch`]: (req, res) => {
      const template = catalogTemplate(role, param(req.params.template_key));
      res.json(template ? { count: 1, template } : { count: 0 });
    },
    [`${plural}.catalog.presets`]: (req, res) => {
      const presets = catalogPresets(role, param(req.params.template_key));
      res.json({ count: presets.length, presets });
    },
    [`${plural}.catalog.presets.fetch`]: (req, res) => {
      const preset = catalogPreset(role, param(req.params.template_key), param(req.params.preset_key));
      res.json(preset ? { count: 1, preset } : { count: 0 });
    },
  };
}

/** The reference's legacy evaluator template list: one entry per evaluator template, with its settings and presets. */
const legacyTemplates: RequestHandler = (req, res) => {
  const templates = catalogTemplates('evaluator', archivedToo(req.query.include_archived)).map((t) => ({
    name: t.name, key: t.key, description: t.description, direct_use: false, settings_template: t.data.schemas.parameters,
    ...(catalogPresets('evaluator', t.key).length ? { settings_presets: catalogPresets('evaluator', t.key).map((p) => ({ key: p.key, name: p.name, values: p.data.parameters })) } : {}),
    outputs_schema: t.data.schemas.outputs ?? null, archived: t.flags.is_archived, tags: t.categories,
  }));
  res.json({ count: templates.length, templates });
};

export function catalogRoutes(_deps: Record<string, never>, guards: Guards<'auth'>): Handlers {
  const routes: Record<string, RequestHandler> = {
    ...roleRoutes('application', 'applications'),
    ...roleRoutes('evaluator', 'evaluators'),
    ...roleRoutes('workflow', 'workflows'),
    'workflows.catalog.types.fetch': (req, res) => {
      const t = catalogType(param(req.params.ag_type));
      if (!t) throw notFound('ag_type_unknown', `Unknown ag-type: ${param(req.params.ag_type)}`);
      res.json({ count: 1, type: t });
    },
    'workflows.catalog.harnesses': (_req, res) => { res.json({ count: CATALOG_HARNESSES.length, harnesses: CATALOG_HARNESSES }); },
    'workflows.catalog.harnesses.fetch': (req, res) => {
      const h = catalogHarness(param(req.params.harness_key));
      if (!h) throw notFound('ag_harness_unknown', `Unknown ag-harness: ${param(req.params.harness_key)}`);
      res.json({ count: 1, harness: h });
    },
    'simple.evaluators.templates': legacyTemplates,
  };
  return Object.fromEntries(Object.entries(routes).map(([id, handler]) => [id as RouteId, [...guards.auth, handler]])) as Handlers;
}
