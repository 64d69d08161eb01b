// Vault secrets of a project (reference accounts §6). Every event of a project's secrets is keyed
// `project:<id>:secrets`, so slugs and provider-key names are decided in the order of one partition.
// The rules never see a credential: events carry the value sealed (see @llm/vault).
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, checkVersion, reject, type Decision } from '../../decision.ts';
import { sameId } from '../ids.ts';

export type SecretEventType = 'accounts.secret.created' | 'accounts.secret.updated' | 'accounts.secret.deleted';
export type SecretEvent = AccountEvent<SecretEventType>;

export interface StoredSecret { id: string; projectId: string; slug: string; kind: string; name: string; managedBy: string; subscriptionProvider: string; version: number }

/** The project's secrets an event looks at (by id, by slug, and those of the same kind). */
export interface SecretState { secrets: StoredSecret[] }

export const SECRET_REJECTIONS = {
  secret_not_found: 'not_found',
  secret_exists: 'conflict',
  secret_slug_exists: 'conflict',
  secret_managed: 'conflict',
  secret_changed: 'conflict',
  subscription_exists: 'conflict',
} as const;
export type SecretRejection = keyof typeof SECRET_REJECTIONS;

const NOT_FOUND = 'Secret not found';
const inProject = (s: SecretState, projectId: string): StoredSecret[] => s.secrets.filter((x) => sameId(x.projectId, projectId));
const byId = (s: SecretState, projectId: string, id: string): StoredSecret | undefined => inProject(s, projectId).find((x) => sameId(x.id, id));

/** The `provider` of a subscription secret's public data ('' for other kinds). */
export const subscriptionProviderOf = (kind: string, publicDataJson: string): string => {
  if (kind !== 'subscription_provider') return '';
  try { const d = JSON.parse(publicDataJson) as { provider?: unknown }; return typeof d.provider === 'string' ? d.provider : ''; } catch { return ''; }
};

export const secretRules = rules({
  eventTypes: ['accounts.secret.created', 'accounts.secret.updated', 'accounts.secret.deleted'],
  rejections: SECRET_REJECTIONS,

  decide(e: SecretEvent, s: SecretState): Decision<SecretRejection> {
    if (e.type === 'accounts.secret.deleted') {
      const current = byId(s, e.payload.project_id, e.payload.secret_id);
      // Deleting what is not there is still a fact (the route answers 204 without looking).
      return current?.managedBy ? managed() : accepted;
    }
    const i = e.payload.secret;
    const current = byId(s, i.project_id, i.secret_id);
    const others = inProject(s, i.project_id).filter((x) => !sameId(x.id, i.secret_id));
    // One connection per subscription provider and project, whether created or made so by a change.
    const sub = subscriptionProviderOf(i.kind, i.public_data_json);
    if (sub && others.some((x) => x.subscriptionProvider === sub)) {
      return reject('subscription_exists', `This project already has a ${sub} subscription connection. Remove it before you add another one.`);
    }
    if (e.type === 'accounts.secret.created') {
      if (s.secrets.some((x) => sameId(x.id, i.secret_id))) return reject('secret_exists', 'Secret already exists');
    } else {
      if (!current) return reject('secret_not_found', NOT_FOUND);
      if (current.managedBy) return managed();
      // A change decided on what the command read (a stored login) applies only to that version.
      const v = checkVersion('secret_changed', 'secret', e.expectedVersion, current.version);
      if (v.status === 'rejected') return v;
    }
    if (i.slug && others.some((x) => x.slug === i.slug)) return reject('secret_slug_exists', `Secret with slug '${i.slug}' already exists in this project.`, { slug: i.slug });
    return accepted;
  },
});

const managed = () => reject('secret_managed', 'This secret is managed by the platform and cannot be changed or deleted.');

// Rules of the vault commands that come before any event.

/** A provider key without a name is named after its provider: `OpenAI`, then `OpenAI 2`, `OpenAI 3`, … */
export function nextProviderKeyName(label: string, takenNames: readonly string[]): string {
  const taken = new Set(takenNames);
  if (!taken.has(label)) return label;
  for (let n = 2; ; n++) if (!taken.has(`${label} ${n}`)) return `${label} ${n}`;
}

/** A name as a slug: NFKD, ASCII only, lower case, words joined by `-`. */
export function slugify(name: string): string {
  return name.normalize('NFKD').replace(/[^\x00-\x7F]/g, '').toLowerCase()
    .replace(/[^\w\s-]/g, '').trim().replace(/[\s_-]+/g, '-').replace(/^-+|-+$/g, '');
}

/** A generated slug: the slugified name, `-`, and the last 12 hex digits of a random UUID. */
export function generatedSlug(name: string, uuid: string): string {
  const base = slugify(name);
  const tail = uuid.replace(/-/g, '').slice(-12);
  return base ? `${base}-${tail}` : tail;
}

/** Platform-owned rows are read-only. */
export function decideSecretChange(current: Pick<StoredSecret, 'managedBy'>): Decision<SecretRejection> {
  return current.managedBy ? managed() : accepted;
}

// The stream key: every event of this aggregate goes to one partition of the accounts topic, in order.
/** A project's secrets in the vault. */
export const secretsKey = (projectId: string): string => `project:${projectId}:secrets`;
