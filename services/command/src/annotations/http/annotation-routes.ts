// The write routes of annotations (reference evaluations §2.1, §3.6): an annotation is one span in a
// trace of its own, written through the span pipeline like every other span (redaction, quota,
// projector-spans), judged by an evaluator of the project (resolved from its references, or
// created for it) whose outputs schema its data must match. PATCH rewrites the span in place and
// DELETE removes the trace; both read the stored annotation through the TraceLookup port.
import type { Request, RequestHandler } from 'express';
import type { Resolved } from '@llm/account-model';
import { annotationCreate, annotationEdit } from '@llm/contracts';
import { RequestValidationError, validate, type Guards, type Handlers } from '@llm/http';
import { parseTraceId } from '@llm/span-model';
import type { Pool } from '@llm/postgres';
import { invalid } from '@llm/errors';
import type { TraceWrites } from '../../ingest/adapters/trace-writes.ts';
import { findSimpleTrace, type TraceLookup } from '../../ingest/adapters/trace-lookup.ts';
import { simpleTraceSpan, type SimpleTraceInput } from '../../ingest/domain/simple-trace.ts';
import type { AnnotationEvaluators } from '../adapters/annotation-evaluators.ts';
import { checkOutputs } from '../domain/annotation-outputs.ts';

export interface AnnotationRouteDeps {
  pool: Pool;
  traces: TraceWrites;
  /** The stored annotations (PATCH/DELETE); none = those routes answer 503, as the simple traces'. */
  lookup?: TraceLookup | undefined;
  evaluators: AnnotationEvaluators;
}

/** The references an annotation's span keeps: the evaluator's three, resolved; the others as sent; no selector. */
function storedReferences(sent: SimpleTraceInput['references'], e: Resolved): SimpleTraceInput['references'] {
  const { selector: _selector, ...rest } = sent as Record<string, SimpleTraceInput['references'][string]>;
  return {
    ...rest,
    evaluator: { id: e.artifact.id, slug: e.artifact.slug },
    evaluator_variant: { id: e.variant.id, slug: e.variant.slug },
    evaluator_revision: { id: e.revision.id, slug: e.revision.slug, version: String(e.revision.version) },
  };
}

/** The annotation's span: the simple trace's, with the evaluator role flag (§3.6). */
function annotationSpan(a: SimpleTraceInput, at: string, ids?: { traceId: string; spanId: string }): ReturnType<typeof simpleTraceSpan> {
  const built = simpleTraceSpan(a, at, ids);
  const ag = built.raw.attributes?.ag as { flags?: Record<string, boolean> } | undefined;
  if (ag) ag.flags = { ...ag.flags, is_evaluator: true };
  return built;
}

const view = (traceId: string, spanId: string, a: SimpleTraceInput): Record<string, unknown> => ({
  trace_id: traceId, span_id: spanId, origin: a.origin, kind: a.kind, channel: a.channel, data: a.data, references: a.references, links: a.links,
  ...(a.tags ? { tags: a.tags } : {}), ...(a.meta ? { meta: a.meta } : {}),
});

export function annotationRoutes(deps: AnnotationRouteDeps, guards: Guards<'edit'>): Handlers {
  const { traces, lookup, evaluators } = deps;

  /** The evaluator and the checked data: a revision without data cannot judge (`{count: 0}`). */
  const judged = async (req: Request, references: SimpleTraceInput['references'], data: Record<string, unknown>): Promise<Resolved | undefined> => {
    const e = await evaluators.resolve(req, references, data);
    if (!e.revision.data) return undefined;
    const schemas = e.revision.data.schemas as { outputs?: unknown } | undefined;
    checkOutputs(data, schemas?.outputs);
    return e;
  };
  const pathTraceId = (req: Request): string => {
    const r = parseTraceId(String(req.params.trace_id));
    if (!r.ok) throw new RequestValidationError([{ loc: ['path', 'trace_id'], msg: 'value is not a valid trace id', type: 'value_error' }]);
    return r.value;
  };

  const create: RequestHandler = async (req, res) => {
    const { annotation } = validate(annotationCreate, req.body);
    const e = await judged(req, annotation.references, annotation.data);
    if (!e) { res.json({ count: 0 }); return; }
    const a: SimpleTraceInput = { ...annotation, references: storedReferences(annotation.references, e) };
    const built = annotationSpan(a, new Date().toISOString());
    const p = await traces.ingest(req, [built.raw]);
    if (p.accepted.length === 0) throw invalid('invalid_annotation', p.rejected.map((r) => r.reason).join('; '));
    res.json({ count: 1, annotation: view(built.traceId, built.spanId, a) });
  };

  const edit: RequestHandler = async (req, res) => {
    const traceId = pathTraceId(req);
    const { annotation } = validate(annotationEdit, req.body);
    const stored = await findSimpleTrace(lookup, req.scope.projectId, traceId);
    if (!stored) { res.json({ count: 0 }); return; }
    const references = annotation.references ?? stored.references;
    const e = await judged(req, references, annotation.data);
    if (!e) { res.json({ count: 0 }); return; }
    const a: SimpleTraceInput = {
      origin: stored.origin, kind: stored.kind, channel: stored.channel, data: annotation.data,
      tags: annotation.tags ?? null, meta: annotation.meta ?? null,
      references: storedReferences(references, e), links: annotation.links ?? stored.links,
    };
    const built = annotationSpan(a, stored.created_at, { traceId: stored.trace_id, spanId: stored.span_id });
    await traces.replace(req, stored.trace_id, [built.raw]);
    res.json({ count: 1, annotation: view(stored.trace_id, stored.span_id, a) });
  };

  const remove: RequestHandler = async (req, res) => {
    const traceId = pathTraceId(req);
    const stored = await findSimpleTrace(lookup, req.scope.projectId, traceId);
    if (!stored) { res.json({ count: 0 }); return; }
    await traces.delete(req, stored.trace_id);
    res.json({ count: 1, annotation_link: { trace_id: stored.trace_id, span_id: stored.span_id } });
  };

  return {
    'annotations.create': [...guards.edit, create],
    'annotations.edit': [...guards.edit, edit],
    'annotations.delete': [...guards.edit, remove],
  };
}
