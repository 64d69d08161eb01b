// What the usage meters need from a spans-topic record, read without decoding the spans: the
// envelope's type, project, organization and time, and how many root spans (spans without a
// parent: traces) the record brings. The spans are scanned field by field and skipped, so metering
// costs a fraction of a full decode.
import protobuf from 'protobufjs';
import type { Result } from '@llm/errors';
import { lookup } from './proto-root.ts';
import { stripRegistryFrame } from './schema-registry.ts';

const Envelope = lookup('Envelope');

export interface SpanUsage {
  type: string;
  projectId: string;
  organizationId: string;
  timeUs: number;
  /** Root spans in an upsert or a replacement; 0 for a deletion. */
  rootSpans: number;
}

const SPANS_FIELD = 2;       // SpansUpserted.spans, TraceReplaced.spans
const PARENT_ID_FIELD = 3;   // SpanRecord.parent_id
const LENGTH_DELIMITED = 2;

/** Whether one encoded SpanRecord has no parent id (absent or empty). */
function isRoot(r: protobuf.Reader, end: number): boolean {
  let root = true;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag >>> 3 === PARENT_ID_FIELD && (tag & 7) === LENGTH_DELIMITED) {
      const len = r.uint32();
      if (len > 0) root = false;
      r.skip(len);
    } else {
      r.skipType(tag & 7);
    }
  }
  return root;
}

function countRoots(payload: Uint8Array): number {
  const r = protobuf.Reader.create(payload);
  let roots = 0;
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag >>> 3 === SPANS_FIELD && (tag & 7) === LENGTH_DELIMITED) {
      const len = r.uint32();
      if (isRoot(r, r.pos + len)) roots++;
    } else {
      r.skipType(tag & 7);
    }
  }
  return roots;
}

export function decodeSpanUsage(buf: Uint8Array): Result<SpanUsage> {
  try {
    const bare = stripRegistryFrame(Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
    const env = Envelope.decode(bare) as unknown as { type: string; project_id: string; organization_id: string; time_us: number | { toNumber(): number }; payload: Uint8Array };
    const timeUs = typeof env.time_us === 'number' ? env.time_us : env.time_us.toNumber();
    const counted = env.type === 'tracing.spans.upserted' || env.type === 'tracing.trace.replaced';
    return { ok: true, value: { type: env.type, projectId: env.project_id, organizationId: env.organization_id, timeUs, rootSpans: counted ? countRoots(env.payload) : 0 } };
  } catch (err) {
    return { ok: false, error: `undecodable envelope: ${(err as Error).message}` };
  }
}
