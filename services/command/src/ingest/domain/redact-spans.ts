// The redaction step of every ingest path: normalised spans are redacted in place, after
// normalisation (the values are strings there) and before they become records. Compiled policies
// are kept per thread (the OTLP workers each have their own).
import { RedactorCache, type VersionedPolicy } from '@llm/redaction';
import type { Span } from '@llm/span-model';

const redactors = new RedactorCache();

/** Applies the project's policy to the spans; none = nothing to do. */
export function redactSpans(spans: Span[], projectId: string, policy: VersionedPolicy | null | undefined): void {
  if (!policy || spans.length === 0) return;
  redactors.get(projectId, policy).redactSpans(spans);
}
