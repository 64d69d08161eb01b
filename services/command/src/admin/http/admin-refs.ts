// What every operator entity route shares (compat §2.2): EntityRef resolution with its 400/404
// rules, path ids, and the admin error body {"detail":{"message":…, <extra keys>}}.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { findUserByEmail, isUuid, readOrganization, readOrganizationBySlug, readProject, readUser, readWorkspace } from '@llm/account-model';
import type { EntityRef } from '@llm/contracts';
import { AppError, invalid } from '@llm/errors';
import { statusOf } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { projectionLag } from '../../accounts/adapters/account-commands.ts';

export type EntityKind = 'user' | 'organization' | 'workspace' | 'project' | 'api_key' | 'membership';
const KIND_NAME: Record<EntityKind, string> = {
  user: 'User', organization: 'Organization', workspace: 'Workspace', project: 'Project', api_key: 'API key', membership: 'Membership',
};

export const missing = (kind: EntityKind, ref: string): AppError =>
  new AppError({ code: `${kind}_not_found`, kind: 'not_found', message: `${KIND_NAME[kind]} not found: ${ref}.`, details: { ref } });
export const badRef = (path: string, reason: string): AppError => invalid('invalid_reference', `Invalid reference at '${path}': ${reason}`, { path, reason });
export const iso = (d: Date | string): string => (d instanceof Date ? d.toISOString() : d);

/**
 * The admin error body of compat §2.2 for the rules' errors (4xx); request validation (422)
 * and real failures (5xx, opaque) stay with the app's error handler.
 */
export function adminBody(handler: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      await handler(req, res);
    } catch (err) {
      if (err instanceof AppError && err.kind !== 'unprocessable' && statusOf(err.kind) < 500) {
        const extra = err.details && typeof err.details === 'object' && !Array.isArray(err.details) ? err.details : {};
        res.status(statusOf(err.kind)).json({ detail: { message: err.message, ...extra } });
      } else next(err);
    }
  };
}

/** An id in a path: a UUID (else 400); the caller checks that it exists. */
export function pathId(req: Request, name: string): string {
  const id = String(req.params[name] ?? '');
  if (!isUuid(id)) throw badRef(name, `'${id}' is not a UUID`);
  return id.toLowerCase();
}

export type ResolvableKind = 'user' | 'organization' | 'workspace' | 'project';

/**
 * EntityRef → the id of an existing row (compat §2.2). `locals` are the request-local refs defined
 * earlier in the same request (the graph route); routes without any pass none, so a `ref` is a 400.
 */
export function entityResolver(pool: Pool) {
  return async function resolve(kind: ResolvableKind, ref: EntityRef, path: string, locals?: ReadonlyMap<string, string>): Promise<string> {
    if (ref.ref !== undefined) {
      const local = locals?.get(ref.ref);
      if (local === undefined) throw badRef(path, `ref '${ref.ref}' is not defined in this request`);
      return local;
    }
    if (ref.slug !== undefined) {
      if (kind !== 'organization') throw badRef(path, `slug-based references are not supported for ${kind}`);
      const org = await readOrganizationBySlug(pool, ref.slug);
      if (!org) throw missing(kind, ref.slug);
      return org.id;
    }
    if (ref.email !== undefined) {
      if (kind !== 'user') throw badRef(path, 'empty reference');
      const u = await findUserByEmail(pool, ref.email);
      if (!u) throw missing(kind, ref.email);
      return u.id;
    }
    const id = ref.id ?? '';
    if (!isUuid(id)) throw badRef(path, `'${id}' is not a UUID`);
    const found = kind === 'user' ? await readUser(pool, id)
      : kind === 'organization' ? await readOrganization(pool, id)
        : kind === 'workspace' ? await readWorkspace(pool, id) : await readProject(pool, id);
    if (!found) throw missing(kind, id);
    return found.id;
  };
}
export type EntityResolve = ReturnType<typeof entityResolver>;

/** One account of an AdminAccountsResponse with every map present and empty (compat §2.2). */
export const emptyAccount = (): Record<string, Record<string, unknown>> => ({
  users: {}, user_identities: {}, organizations: {}, workspaces: {}, projects: {},
  organization_memberships: {}, workspace_memberships: {}, project_memberships: {},
});

/** The admin responses' views of projected rows (compat §2.2), read after the event is applied. */
export function adminViews(pool: Pool) {
  return {
    async user(id: string) {
      const u = await readUser(pool, id);
      if (!u) throw projectionLag();
      return { id: u.id, uid: u.id, email: u.email, username: u.username, name: u.name || u.username, created_at: iso(u.created_at), updated_at: iso(u.created_at) };
    },
    async organization(id: string) {
      const o = await readOrganization(pool, id);
      if (!o) throw projectionLag();
      return { id: o.id, name: o.name, slug: o.slug, owner_user_id: o.owner_id, created_at: iso(o.created_at), updated_at: iso(o.created_at) };
    },
    async workspace(id: string) {
      const w = await readWorkspace(pool, id);
      if (!w) throw projectionLag();
      return { id: w.id, name: w.name, organization_id: w.organization_id, created_at: iso(w.created_at), updated_at: iso(w.created_at) };
    },
    async project(id: string) {
      const p = await readProject(pool, id);
      if (!p) throw projectionLag();
      return { id: p.id, name: p.name, organization_id: p.organization_id, workspace_id: p.workspace_id, is_default: p.is_default, created_at: iso(p.created_at), updated_at: iso(p.created_at) };
    },
  };
}
