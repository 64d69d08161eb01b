// The versioned-artifact routes, generated from one table per surface (reference evaluations §1.2):
// every entity (testsets, workflows, applications, evaluators) gets the same git and simple routes
// under its own path and ids, so a route missing for one entity cannot happen by omission.
import type { RouteDef } from './routes.ts';

/** `:id`, `:variant_id`, `:revision_id` in a path are the entity's parameters (`:testset_id`, `:testset_variant_id`, …). */
const GIT_OPS = {
  create: { method: 'POST', path: '', side: 'command' },
  fetch: { method: 'GET', path: '/:id', side: 'query' },
  edit: { method: 'PUT', path: '/:id', side: 'command' },
  archive: { method: 'POST', path: '/:id/archive', side: 'command' },
  unarchive: { method: 'POST', path: '/:id/unarchive', side: 'command' },
  query: { method: 'POST', path: '/query', side: 'query' },
  'variants.create': { method: 'POST', path: '/variants', side: 'command' },
  'variants.fetch': { method: 'GET', path: '/variants/:variant_id', side: 'query' },
  'variants.edit': { method: 'PUT', path: '/variants/:variant_id', side: 'command' },
  'variants.archive': { method: 'POST', path: '/variants/:variant_id/archive', side: 'command' },
  'variants.unarchive': { method: 'POST', path: '/variants/:variant_id/unarchive', side: 'command' },
  'variants.query': { method: 'POST', path: '/variants/query', side: 'query' },
  'variants.fork': { method: 'POST', path: '/variants/fork', side: 'command' },
  'revisions.create': { method: 'POST', path: '/revisions', side: 'command' },
  'revisions.fetch': { method: 'GET', path: '/revisions/:revision_id', side: 'query' },
  'revisions.edit': { method: 'PUT', path: '/revisions/:revision_id', side: 'command' },
  'revisions.archive': { method: 'POST', path: '/revisions/:revision_id/archive', side: 'command' },
  'revisions.unarchive': { method: 'POST', path: '/revisions/:revision_id/unarchive', side: 'command' },
  'revisions.query': { method: 'POST', path: '/revisions/query', side: 'query' },
  'revisions.commit': { method: 'POST', path: '/revisions/commit', side: 'command' },
  'revisions.log': { method: 'POST', path: '/revisions/log', side: 'query' },
  'revisions.retrieve': { method: 'POST', path: '/revisions/retrieve', side: 'query' },
} as const satisfies Record<string, RouteDef>;

const SIMPLE_OPS = {
  create: { method: 'POST', path: '', side: 'command' },
  edit: { method: 'PUT', path: '/:id', side: 'command' },
  archive: { method: 'POST', path: '/:id/archive', side: 'command' },
  unarchive: { method: 'POST', path: '/:id/unarchive', side: 'command' },
  fetch: { method: 'GET', path: '/:id', side: 'query' },
  query: { method: 'POST', path: '/query', side: 'query' },
} as const satisfies Record<string, RouteDef>;

/** The catalog of a workflow view (static; authentication only): evaluators and applications list templates and presets, workflows also types by key and harnesses. */
const CATALOG_OPS = {
  'catalog.types': { method: 'GET', path: '/catalog/types', side: 'query' },
  'catalog.templates': { method: 'GET', path: '/catalog/templates', side: 'query' },
  'catalog.templates.fetch': { method: 'GET', path: '/catalog/templates/:template_key', side: 'query' },
  'catalog.presets': { method: 'GET', path: '/catalog/templates/:template_key/presets', side: 'query' },
  'catalog.presets.fetch': { method: 'GET', path: '/catalog/templates/:template_key/presets/:preset_key', side: 'query' },
} as const satisfies Record<string, RouteDef>;
const WORKFLOW_CATALOG_OPS = {
  ...CATALOG_OPS,
  'catalog.types.fetch': { method: 'GET', path: '/catalog/types/:ag_type', side: 'query' },
  'catalog.harnesses': { method: 'GET', path: '/catalog/harnesses', side: 'query' },
  'catalog.harnesses.fetch': { method: 'GET', path: '/catalog/harnesses/:harness_key', side: 'query' },
} as const satisfies Record<string, RouteDef>;

type Ops = Record<string, RouteDef>;
type Prefixed<P extends string, T extends Ops> = { readonly [K in keyof T & string as `${P}.${K}`]: { method: T[K]['method']; path: string; side: T[K]['side'] } };

function prefixed<P extends string, T extends Ops>(prefix: P, base: string, idParam: string, ops: T): Prefixed<P, T> {
  const entity = idParam.replace(/_id$/, '');
  const path = (p: string): string => base + p.replace(':id', `:${idParam}`).replace(':variant_id', `:${entity}_variant_id`).replace(':revision_id', `:${entity}_revision_id`);
  return Object.fromEntries(Object.entries(ops).map(([op, d]) => [`${prefix}.${op}`, { ...d, path: path(d.path) }])) as Prefixed<P, T>;
}

/** The git routes of compat §1.3 under `/<plural>`: the artifact, its variants (with fork) and revisions (initial, commit, log, retrieve). */
export const gitRoutes = <P extends string>(plural: P, entity: string): Prefixed<P, typeof GIT_OPS> => prefixed(plural, `/${plural}`, `${entity}_id`, GIT_OPS);
/** `/simple/<plural>` create, edit, archive, unarchive, fetch, query. */
export const simpleRoutes = <P extends string>(plural: P, entity: string): Prefixed<`simple.${P}`, typeof SIMPLE_OPS> =>
  prefixed(`simple.${plural}` as `simple.${P}`, `/simple/${plural}`, `${entity}_id`, SIMPLE_OPS);

/** `/<plural>/catalog/…` of applications and evaluators. */
export const catalogRoutes = <P extends 'applications' | 'evaluators'>(plural: P): Prefixed<P, typeof CATALOG_OPS> => prefixed(plural, `/${plural}`, 'x_id', CATALOG_OPS);
/** `/workflows/catalog/…`: also types by key and harnesses. */
export const workflowCatalogRoutes = (): Prefixed<'workflows', typeof WORKFLOW_CATALOG_OPS> => prefixed('workflows', '/workflows', 'x_id', WORKFLOW_CATALOG_OPS);
