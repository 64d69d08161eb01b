// Plans an admin-created account: ids, names and slugs for the user's organization, default
// workspace and default project (reference accounts §13). Pure apart from the id/slug source.
import type { AccountProvisioned } from '@llm/events';

export interface AccountRequest {
  user: { email: string; username?: string; name?: string };
  organization?: { name: string; slug?: string };
  workspace?: { name: string; slug?: string };
  project?: { name: string; slug?: string };
}

export interface IdSource {
  uuid(): string;
  suffix(): string; // short random, makes generated slugs unique
}

export function slugify(s: string): string {
  return s.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'org';
}

export function planAccount(a: AccountRequest, ids: IdSource): Omit<AccountProvisioned, 'api_key'> {
  const display = a.user.name || a.user.username || a.user.email.split('@')[0]!;
  const orgName = a.organization?.name ?? `${display}'s Organization`;
  return {
    user: { id: ids.uuid(), email: a.user.email, name: a.user.name ?? '', username: a.user.username ?? a.user.email.split('@')[0]! },
    organization: { id: ids.uuid(), name: orgName, slug: a.organization?.slug ?? `${slugify(display)}-${ids.suffix()}` },
    workspace: { id: ids.uuid(), name: a.workspace?.name ?? 'Default', slug: a.workspace?.slug ?? 'default' },
    project: { id: ids.uuid(), name: a.project?.name ?? 'Default', slug: a.project?.slug ?? 'default' },
  };
}
