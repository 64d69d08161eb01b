// The artifact writes of a request (reference evaluations §1.2): each one accounts event on the
// family's stream key, decided early, appended and awaited (read-your-writes). A commit claims the
// variant's next version and, when another commit took it first, reads the head again and retries
// (bounded, with jitter), so two concurrent commits never share a version and neither is lost.
// Saved queries (the `query` family) are written here too, as the accounts.query.* events their
// log has always held (asSavedQueryEvent), and refused with their own `query_*` codes.
import type { Request } from 'express';
import { artifactsKey, asSavedQueryEvent, familyCode, familyOf, readVariant, refuse, revisionsUpTo, type ArtifactEvent, type ArtifactKind, type ArtifactRevisionRow, type Fact } from '@llm/account-model';
import { uuidv7, type ArtifactHeader, type ArtifactRevision, type StoredTestcase } from '@llm/events';
import type { AppError } from '@llm/errors';
import type { Pool } from '@llm/postgres';
import type { AccountCommands, AccountWrite } from '../../accounts/adapters/account-commands.ts';
import type { AccountsEventType } from '../../accounts/adapters/account-appender.ts';
import { hex12, testcaseBatches } from '../domain/artifact-content.ts';

/** A revision as a write declares it (its id and version are the writer's). */
export interface RevisionContent { slug?: string | null | undefined; header: ArtifactHeader; dataJson: string; message: string }

const MAX_COMMIT_ATTEMPTS = 8;
/** Versions are Postgres integers: "every revision" is this bound. */
const MAX_VERSION = 2_147_483_647;

export class ArtifactWrites {
  constructor(private readonly deps: { commands: AccountCommands; pool: Pool }) {}

  /** The event of a write on the kind's stream key (a saved query's as its own event type, filed in `folderId`). */
  private change(req: Request, kind: ArtifactKind, aggregate: string, fact: Fact<ArtifactEvent>, folderId?: string): AccountWrite<AccountsEventType> {
    const family = familyOf(kind);
    const key = artifactsKey(req.scope.projectId, family);
    if (family === 'query') {
      const q = asSavedQueryEvent(fact, folderId);
      return { type: q.type, key, payload: q.payload, meta: { aggregateId: `query:${aggregate}` } } as AccountWrite<AccountsEventType>;
    }
    return { type: fact.type, key, payload: fact.payload, meta: { aggregateId: `artifact:${aggregate}` } } as AccountWrite<AccountsEventType>;
  }

  /** Stores a testset's rows (before the revision that names them; storing an id again is a no-op). */
  async storeTestcases(req: Request, testsetId: string, testcases: readonly StoredTestcase[]): Promise<void> {
    for (const batch of testcaseBatches(testcases)) {
      await this.deps.commands.run(req, this.change(req, 'testset', testsetId, { type: 'accounts.testcases.stored', payload: { testset_id: testsetId, testcases: batch } }));
    }
  }

  /** An artifact with one variant and that variant's first revisions (numbered 0, 1, … in order). */
  async create(req: Request, entity: ArtifactKind, a: {
    id: string; slug: string; header: ArtifactHeader; folderId?: string;
    variant?: { id: string; slug?: string; header: ArtifactHeader; revisions: Array<RevisionContent & { id: string }> };
  }): Promise<void> {
    const variants = a.variant ? [{
      variant_id: a.variant.id, slug: a.variant.slug ?? hex12(), header: a.variant.header,
      revisions: a.variant.revisions.map((r, version): ArtifactRevision => ({ revision_id: r.id, slug: r.slug ?? hex12(), version, header: r.header, data_json: r.dataJson, message: r.message })),
    }] : [];
    await this.deps.commands.run(req, this.change(req, entity, a.id, { type: 'accounts.artifact.created', payload: { family: familyOf(entity), artifact_id: a.id, slug: a.slug, header: a.header, variants } }, a.folderId));
  }

  async edit(req: Request, entity: ArtifactKind, artifactId: string, header: ArtifactHeader, folderId?: string): Promise<void> {
    await this.deps.commands.run(req, this.change(req, entity, artifactId, { type: 'accounts.artifact.edited', payload: { family: familyOf(entity), artifact_id: artifactId, header } }, folderId));
  }

  /** A variant, with the revisions it starts with (a fork's copies, numbered 0, 1, …; none for a plain create). */
  async addVariant(req: Request, entity: ArtifactKind, artifactId: string, v: { id: string; slug: string; header: ArtifactHeader; revisions?: Array<RevisionContent & { id: string }> }): Promise<void> {
    const revisions = (v.revisions ?? []).map((r, version): ArtifactRevision => ({ revision_id: r.id, slug: r.slug ?? hex12(), version, header: r.header, data_json: r.dataJson, message: r.message }));
    await this.deps.commands.run(req, this.change(req, entity, artifactId, {
      type: 'accounts.artifact.variant.created', payload: { family: familyOf(entity), artifact_id: artifactId, variant: { variant_id: v.id, slug: v.slug, header: v.header, revisions } },
    }));
  }

  /**
   * A fork: a new variant of the source's artifact that starts with copies of the source variant's
   * revisions up to version `upTo` (absent: all; archived ones too), renumbered from 0 and slugged
   * `<old>_<new variant id hex>`, in one event, so a fork is whole or absent. `copyHeader`: how a
   * copy keeps its revision's header. Undefined (nothing written) when there is nothing to copy.
   */
  async fork(
    req: Request, kind: ArtifactKind, source: { artifactId: string; variantId: string; upTo?: number | undefined },
    target: { slug: string; header: ArtifactHeader }, copyHeader: (r: ArtifactRevisionRow) => ArtifactHeader,
  ): Promise<string | undefined> {
    const history = await revisionsUpTo(this.deps.pool, source.variantId, source.upTo ?? MAX_VERSION);
    if (history.length === 0) return undefined;
    const id = uuidv7();
    const suffix = id.replace(/-/g, '');
    const revisions = history.map((r) => ({ id: uuidv7(), slug: `${r.slug}_${suffix}`, header: copyHeader(r), dataJson: r.data === null ? '' : JSON.stringify(r.data), message: r.message ?? '' }));
    await this.addVariant(req, kind, source.artifactId, { id, slug: target.slug, header: target.header, revisions });
    return id;
  }

  async editRevision(req: Request, entity: ArtifactKind, artifactId: string, variantId: string, revisionId: string, header: ArtifactHeader): Promise<void> {
    await this.deps.commands.run(req, this.change(req, entity, artifactId, {
      type: 'accounts.artifact.revision.edited', payload: { family: familyOf(entity), artifact_id: artifactId, variant_id: variantId, revision_id: revisionId, header },
    }));
  }

  async editVariant(req: Request, entity: ArtifactKind, artifactId: string, variantId: string, header: ArtifactHeader): Promise<void> {
    await this.deps.commands.run(req, this.change(req, entity, artifactId, { type: 'accounts.artifact.variant.edited', payload: { family: familyOf(entity), artifact_id: artifactId, variant_id: variantId, header } }));
  }

  async archive(req: Request, entity: ArtifactKind, artifactId: string, target: 'artifact' | 'variant' | 'revision', targetId: string, archived: boolean): Promise<void> {
    await this.deps.commands.run(req, this.change(req, entity, artifactId, { type: 'accounts.artifact.archive.set', payload: { family: familyOf(entity), artifact_id: artifactId, target, target_id: targetId, archived } }));
  }

  /**
   * Commits the variant's next revision (`initial`: only as its first, version 0; `after`: only
   * right after that version, once, else its `conflict`); returns its id. Content computed from the
   * head (a deploy's merged keys) is a function, called again on each try.
   */
  async commit(
    req: Request, entity: ArtifactKind, artifactId: string, variantId: string, content: RevisionContent | (() => Promise<RevisionContent>),
    opts: { initial?: boolean; after?: { version: number; conflict: () => Promise<AppError> } } = {},
  ): Promise<string> {
    const family = familyOf(entity);
    // A first commit racing another first commit loses as `initial_revision_exists`: retried too.
    const on = [familyCode(family, 'artifact_version_conflict'), ...(opts.initial ? [] : [familyCode(family, 'artifact_initial_revision_exists')])];
    const retry = opts.after
      ? { on, maxAttempts: 1, exhausted: opts.after.conflict }
      : {
        on, maxAttempts: MAX_COMMIT_ATTEMPTS, jitterMs: 20,
        exhausted: () => refuse(familyCode(family, 'artifact_commit_contention'), 'Too many concurrent commits to this variant; retry the commit.'),
      };
    return this.deps.commands.runAtVersion(req, retry, async () => {
      const variant = await readVariant(this.deps.pool, req.scope.projectId, family, { id: variantId });
      if (!variant || variant.artifact_id !== artifactId) throw refuse(familyCode(family, 'artifact_variant_not_found'), 'The variant does not exist in this project.');
      const revisionId = uuidv7();
      const c = typeof content === 'function' ? await content() : content;
      const write = this.change(req, entity, artifactId, {
        type: 'accounts.artifact.revision.added',
        payload: {
          family, artifact_id: artifactId, variant_id: variantId,
          revision: { revision_id: revisionId, slug: c.slug ?? hex12(), version: opts.initial ? 0 : (opts.after?.version ?? variant.latest_version) + 1, header: c.header, data_json: c.dataJson, message: c.message },
        },
      });
      return { write, value: revisionId };
    });
  }
}
