// The versioned-artifact routes, generated from one table per surface (reference evaluations §1.2):
// every entity (testsets, workflows, applications, evaluators) gets the same git and simple routes
// under its own path and ids, so a route missing for one entity cannot happen by omission.
import type { RouteDef } from './routes.ts';

/** `:id` in a path is the entity's id parameter (`:testset_id`, …). */
const GIT_OPS = {
  'variants.create': { method: 'POST', path: '/variants', side: 'command' },
  'revisions.commit': { method: 'POST', path: '/revisions/commit', side: 'command' },
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

type Ops = Record<string, RouteDef>;
type Prefixed<P extends string, T extends Ops> = { readonly [K in keyof T & string as `${P}.${K}`]: { method: T[K]['method']; path: string; side: T[K]['side'] } };

function prefixed<P extends string, T extends Ops>(prefix: P, base: string, idParam: string, ops: T): Prefixed<P, T> {
  return Object.fromEntries(Object.entries(ops).map(([op, d]) => [`${prefix}.${op}`, { ...d, path: base + d.path.replace(':id', `:${idParam}`) }])) as Prefixed<P, T>;
}

/** `/<plural>/variants`, `/<plural>/revisions/commit`, `/<plural>/revisions/retrieve`. */
export const gitRoutes = <P extends string>(plural: P, entity: string): Prefixed<P, typeof GIT_OPS> => prefixed(plural, `/${plural}`, `${entity}_id`, GIT_OPS);
/** `/simple/<plural>` create, edit, archive, unarchive, fetch, query. */
export const simpleRoutes = <P extends string>(plural: P, entity: string): Prefixed<`simple.${P}`, typeof SIMPLE_OPS> =>
  prefixed(`simple.${plural}` as `simple.${P}`, `/simple/${plural}`, `${entity}_id`, SIMPLE_OPS);
