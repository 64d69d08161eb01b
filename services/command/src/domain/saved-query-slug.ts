// Slugs of saved queries made when the client gives none: readable when the query has a name,
// with a random suffix so that two queries of the same name do not collide.
import { SAVED_QUERY_SLUG } from '@llm/contracts';

const MAX_BASE = 48;

/** `suffix` is random lowercase hex chosen by the caller (this module stays pure). */
export function newQuerySlug(name: string | undefined, suffix: string): string {
  const base = (name ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_BASE)
    .replace(/-+$/, '');
  const slug = base ? `${base}-${suffix}` : `query-${suffix}`;
  if (!SAVED_QUERY_SLUG.test(slug)) throw new Error(`generated slug '${slug}' breaks the slug rule`);
  return slug;
}
