// The lookup embeds resolve through (reference evaluations §2.7), in the caller's project only: a
// workflow, application or evaluator revision by its refs, or the revision an environment's key
// names. Archived targets resolve; another project's are not found.
import { resolveRevision, type EmbedLookup, type EmbedRef } from '@llm/account-model';
import type { ArtifactRef } from '@llm/contracts';
import type { Pool } from '@llm/postgres';

const ref = (r: EmbedRef | undefined): ArtifactRef | null => (r ? { id: r.id ?? null, slug: r.slug ?? null, version: r.version ?? null } : null);

export function embedLookup(pool: Pool, projectId: string): EmbedLookup {
  return async (target) => {
    const refs = target.references;
    let revisionId: string | undefined;
    if (refs.environment || refs.environment_variant || refs.environment_revision) {
      const env = await resolveRevision(pool, projectId, 'environment', { artifact: ref(refs.environment), variant: ref(refs.environment_variant), revision: ref(refs.environment_revision) });
      if (env.status !== 'found' || !target.selector?.key) return undefined;
      const entry = (env.found.revision.data?.references as Record<string, Record<string, EmbedRef> | undefined> | undefined)?.[target.selector.key];
      const pinned = entry && Object.entries(entry).find(([k]) => k.endsWith('_revision'))?.[1];
      if (!pinned?.id) return undefined;
      revisionId = pinned.id;
    }
    const prefix = ['workflow', 'application', 'evaluator'].find((p) => refs[p] || refs[`${p}_variant`] || refs[`${p}_revision`]);
    const found = revisionId !== undefined
      ? await resolveRevision(pool, projectId, 'workflow', { revision: { id: revisionId, slug: null, version: null } })
      : prefix ? await resolveRevision(pool, projectId, 'workflow', { artifact: ref(refs[prefix]), variant: ref(refs[`${prefix}_variant`]), revision: ref(refs[`${prefix}_revision`]) }) : undefined;
    if (found?.status !== 'found') return undefined;
    const r = found.found.revision;
    return { data: r.data ?? {}, ref: { kind: 'workflow_revision', id: r.id, slug: r.slug, version: String(r.version) } };
  };
}
