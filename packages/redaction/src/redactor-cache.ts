// Compiled policies by project and version, so a request compiles nothing: a new version is a new
// entry, and the oldest entries go first beyond `max`.
import { compilePolicy, type Redactor } from './redactor.ts';
import type { VersionedPolicy } from './policy.ts';

export class RedactorCache {
  private readonly byKey = new Map<string, Redactor>();

  constructor(private readonly max = 1_000) {}

  /** The project's compiled policy; throws when the policy does not compile (it was validated when set). */
  get(projectId: string, p: VersionedPolicy): Redactor {
    const key = `${projectId}:${p.version}`;
    const hit = this.byKey.get(key);
    if (hit) return hit;
    const c = compilePolicy(p);
    if (!c.ok) throw new Error(`redaction policy v${p.version} of project ${projectId} does not compile: ${c.field}: ${c.reason}`);
    this.byKey.set(key, c.redactor);
    if (this.byKey.size > this.max) this.byKey.delete(this.byKey.keys().next().value!);
    return c.redactor;
  }
}
