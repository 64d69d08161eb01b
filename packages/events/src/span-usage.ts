// What the usage meters need from a spans-topic record, read without decoding the spans: the
// envelope's type, project, organization, actor and time, the record's trace id, and how many spans
// it brings. The spans are counted, never decoded, so metering costs a fraction of a full decode.
import protobuf from 'protobufjs';
import type { Result } from '@llm/errors';
import { lookup } from './proto-root.ts';
import { stripRegistryFrame } from './schema-registry.ts';

const Envelope = lookup('Envelope');

export interface SpanUsage {
  type: string;
  projectId: string;
  organizationId: string;
  /** The user (or API key's user) that caused it; '' = none. */
  actorId: string;
  timeUs: number;
  /** The trace the record belongs to ('' for a record that names none). */
  traceId: string;
  /** Spans an upsert or a replacement stores; 0 for a deletion. */
  spans: number;
}

const TRACE_ID_FIELD = 1;    // SpansUpserted.trace_id, TraceReplaced.trace_id, TraceDeleted.trace_id
const SPANS_FIELD = 2;       // SpansUpserted.spans, TraceReplaced.spans
const LENGTH_DELIMITED = 2;

function readPayload(payload: Uint8Array): { traceId: string; spans: number } {
  const r = protobuf.Reader.create(payload);
  let traceId = '';
  let spans = 0;
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag >>> 3 === TRACE_ID_FIELD && (tag & 7) === LENGTH_DELIMITED) traceId = r.string();
    else if (tag >>> 3 === SPANS_FIELD && (tag & 7) === LENGTH_DELIMITED) { r.skip(r.uint32()); spans++; }
    else r.skipType(tag & 7);
  }
  return { traceId, spans };
}

export function decodeSpanUsage(buf: Uint8Array): Result<SpanUsage> {
  try {
    const bare = stripRegistryFrame(Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
    const env = Envelope.decode(bare) as unknown as { type: string; project_id: string; organization_id: string; actor_id: string; time_us: number | { toNumber(): number }; payload: Uint8Array };
    const timeUs = typeof env.time_us === 'number' ? env.time_us : env.time_us.toNumber();
    const stores = env.type === 'tracing.spans.upserted' || env.type === 'tracing.trace.replaced';
    const p = readPayload(env.payload);
    return {
      ok: true,
      value: { type: env.type, projectId: env.project_id, organizationId: env.organization_id, actorId: env.actor_id, timeUs, traceId: p.traceId, spans: stores ? p.spans : 0 },
    };
  } catch (err) {
    return { ok: false, error: `undecodable envelope: ${(err as Error).message}` };
  }
}
