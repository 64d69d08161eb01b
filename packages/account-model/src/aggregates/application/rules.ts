// Applications of a project with their variants and numbered revisions (reference compat §4.2): the
// minimum a human evaluation reads. Every event is keyed `project:<id>:applications`, so slug
// uniqueness and revision numbers are decided in the order of one partition. A revision number is
// the variant's current one plus one (0 for a variant's first): the command proposes it and the
// aggregate refuses a number a concurrent commit took meanwhile (409; the command reads and retries).
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, reject, type Decision } from '../../decision.ts';
import { sameId } from '../ids.ts';

export type ApplicationEventType = 'accounts.application.created' | 'accounts.application.variant_created' | 'accounts.application.revision_committed';
export type ApplicationEvent = AccountEvent<ApplicationEventType>;

export interface ApplicationRef { id: string; projectId: string; slug: string }
/** `current`: the variant's current revision number, null before its first commit. */
export interface ApplicationVariantRef { id: string; applicationId: string; projectId: string; slug: string; current: number | null }

/** What an application event looks at: its project, the applications and variants it names or whose slug it takes. */
export interface ApplicationState {
  projects: Array<{ id: string }>;
  applications: ApplicationRef[];
  variants: ApplicationVariantRef[];
}

export const APPLICATION_REJECTIONS = {
  application_project_not_found: 'not_found',
  application_exists: 'conflict',
  application_slug_taken: 'conflict',
  application_not_found: 'not_found',
  application_variant_exists: 'conflict',
  application_variant_slug_taken: 'conflict',
  application_variant_not_found: 'not_found',
  application_revision_changed: 'conflict',
} as const;
export type ApplicationRejection = keyof typeof APPLICATION_REJECTIONS;

export const APPLICATION_NOT_FOUND = 'Application not found';
export const APPLICATION_VARIANT_NOT_FOUND = 'Application variant not found';

const appIn = (s: ApplicationState, id: string, projectId: string): ApplicationRef | undefined =>
  s.applications.find((a) => sameId(a.id, id) && sameId(a.projectId, projectId));

export const applicationRules = rules({
  eventTypes: ['accounts.application.created', 'accounts.application.variant_created', 'accounts.application.revision_committed'],
  rejections: APPLICATION_REJECTIONS,

  decide(e: ApplicationEvent, s: ApplicationState): Decision<ApplicationRejection> {
    if (e.type === 'accounts.application.created') {
      const a = e.payload.application;
      if (!s.projects.some((p) => sameId(p.id, a.project_id))) return reject('application_project_not_found', 'Project not found');
      if (s.applications.some((x) => sameId(x.id, a.application_id))) return reject('application_exists', 'Application already exists');
      if (s.applications.some((x) => sameId(x.projectId, a.project_id) && x.slug === a.slug)) {
        return reject('application_slug_taken', 'An application with this slug already exists in the project.');
      }
      return accepted;
    }
    const p = e.payload;
    if (!appIn(s, p.application_id, p.project_id)) return reject('application_not_found', APPLICATION_NOT_FOUND);
    if (e.type === 'accounts.application.variant_created') {
      if (s.variants.some((v) => sameId(v.id, e.payload.variant_id))) return reject('application_variant_exists', 'Application variant already exists');
      if (s.variants.some((v) => sameId(v.applicationId, p.application_id) && v.slug === e.payload.slug)) {
        return reject('application_variant_slug_taken', 'A variant with this slug already exists in the application.');
      }
      return accepted;
    }
    const v = s.variants.find((x) => sameId(x.id, e.payload.variant_id));
    if (!v || !sameId(v.applicationId, p.application_id)) return reject('application_variant_not_found', APPLICATION_VARIANT_NOT_FOUND);
    const next = v.current === null ? 0 : v.current + 1;
    if (e.payload.version !== next) {
      return reject('application_revision_changed', `The variant's revision changed meanwhile (expected number ${next}, got ${e.payload.version}).`);
    }
    return accepted;
  },
});

// The stream key: every event of this aggregate goes to one partition of the accounts topic, in order.
/** A project's applications, their variants and revisions. */
export const applicationsKey = (projectId: string): string => `project:${projectId}:applications`;
