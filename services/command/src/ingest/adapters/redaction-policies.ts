// Which redaction policy ingest applies to a project: read from the accounts projection
// (redaction_policies) and cached per project for `ttlMs`, like the plan, so a request pays one
// map lookup (a change this process makes is seen at once through `invalidate`, another process's
// within `ttlMs`). A failed read keeps serving the last policy known for the project; with none
// known the read fails and ingest answers 503: a span is never stored raw because the policy could
// not be read.
import { readRedactionPolicy } from '@llm/account-model';
import type { Pool } from '@llm/postgres';
import { redactionPolicySchema, type VersionedPolicy } from '@llm/redaction';

export type PolicyReader = (projectId: string) => Promise<VersionedPolicy | null>;

export function postgresPolicyReader(pool: Pool): PolicyReader {
  return async (projectId) => {
    const row = await readRedactionPolicy(pool, projectId);
    if (!row || row.policy === null) return null;
    // Validated when set; a row that no longer parses is refused rather than ignored.
    return { version: row.version, policy: redactionPolicySchema.parse(row.policy) };
  };
}

interface Entry { at: number; value: Promise<VersionedPolicy | null>; known?: { policy: VersionedPolicy | null } }

export class RedactionPolicies {
  private readonly cache = new Map<string, Entry>();

  constructor(private readonly read: PolicyReader, private readonly ttlMs: number, private readonly max = 100_000, private readonly now: () => number = Date.now) {}

  /** The project's policy; null = none (ingest stores values as sent). */
  of(projectId: string): Promise<VersionedPolicy | null> {
    const k = projectId.toLowerCase();
    const hit = this.cache.get(k);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value;
    const known = hit?.known;
    const entry: Entry = { at: this.now(), value: Promise.resolve(null), ...(known && { known }) };
    entry.value = this.read(projectId).then(
      (policy) => { entry.known = { policy }; return policy; },
      (err: unknown) => {
        if (known) return known.policy;
        if (this.cache.get(k) === entry) this.cache.delete(k);
        throw err;
      },
    );
    this.cache.delete(k);
    this.cache.set(k, entry);
    if (this.cache.size > this.max) this.cache.delete(this.cache.keys().next().value!);
    return entry.value;
  }

  invalidate(projectId: string): void {
    this.cache.delete(projectId.toLowerCase());
  }
}
