// Confluent schema-registry framing of envelopes, so other teams can decode our topics with any
// Confluent-compatible deserializer. Only the frame is added: the bytes inside stay the Envelope
// that codec.ts writes, and readers here keep using the committed .proto files as reader schema.
import { readFileSync } from 'node:fs';
import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { protoFiles } from './proto-root.ts';

export interface EventFraming {
  /** Wraps an encoded Envelope for `topic` (registers the schema on first use for that topic). */
  encode(topic: string, envelope: Buffer): Promise<Buffer>;
  /** Returns the Envelope bytes of a record, framed or not. */
  decode(buf: Buffer): Promise<Buffer>;
}

export interface RegistryFramingOptions {
  /** Compatibility set on a subject we create; an existing subject with another level is an error. */
  compatibility?: COMPATIBILITY;
  clientId?: string;
  /** Topics to register at once, so a wrong URL fails at start-up rather than on the first write. */
  topics?: readonly string[];
}

/**
 * No registry: records are written as bare Envelopes. Reading still strips a frame when there is
 * one (no registry call is needed for that), so turning the registry off never strands records.
 */
export const plainFraming: EventFraming = {
  encode: async (_topic, envelope) => envelope,
  decode: async (buf) => stripRegistryFrame(buf),
};

const MAGIC = 0;
// Envelope is the first (and only) message of envelope.proto, so its message-index path is [0],
// which the Confluent format writes as the single byte 0.
const ENVELOPE_INDEX = Buffer.from([0]);

/**
 * Registers the Envelope schema (PROTOBUF, subject `<topic>-value`, TopicNameStrategy) once per
 * topic and frames records in the Confluent wire format: magic 0, schema id (int32 BE), message
 * indexes, protobuf bytes.
 *
 * The library's own encode(id, payload) is not used: it takes a JS object and re-serializes it with
 * its own protobufjs copy (the envelope is already bytes), and it leaves out the message indexes,
 * which Confluent's protobuf deserializers require.
 */
export async function createRegistryFraming(url: string, opts: RegistryFramingOptions = {}): Promise<EventFraming> {
  const registry = new SchemaRegistry({ host: url, ...(opts.clientId ? { clientId: opts.clientId } : {}) });
  // The committed file as it is (comments included): what other teams read in the registry is what
  // they would read in this repo.
  const schema = readFileSync(protoFiles.dir + 'envelope.proto', 'utf8');
  const compatibility = opts.compatibility ?? COMPATIBILITY.BACKWARD;
  const ids = new Map<string, Promise<number>>();

  const schemaId = (topic: string): Promise<number> => {
    let id = ids.get(topic);
    if (!id) {
      id = registry.register({ type: SchemaType.PROTOBUF, schema }, { subject: `${topic}-value`, compatibility }).then((r) => r.id);
      // A failed registration (registry down) is retried on the next record, not cached.
      id.catch(() => ids.delete(topic));
      ids.set(topic, id);
    }
    return id;
  };

  await Promise.all((opts.topics ?? []).map(schemaId));
  return {
    async encode(topic, envelope) {
      const head = Buffer.alloc(5);
      head.writeUInt8(MAGIC, 0);
      head.writeInt32BE(await schemaId(topic), 1);
      return Buffer.concat([head, ENVELOPE_INDEX, envelope]);
    },
    decode: async (buf) => stripRegistryFrame(buf),
  };
}

/**
 * Strips a Confluent frame if there is one. A bare Envelope never starts with byte 0 (that would
 * be field number 0, which protobuf forbids; an all-default Envelope is empty), so records written
 * before the registry was enabled pass through unchanged. The schema id is not looked up: every
 * schema on our subjects is a BACKWARD-compatible Envelope, and the committed .proto is the reader
 * schema, so decoding needs no registry round trip and survives a registry outage.
 */
export function stripRegistryFrame(buf: Buffer): Buffer {
  if (buf.length === 0 || buf[0] !== MAGIC) return buf;
  if (buf.length < 6) throw new Error(`truncated schema-registry frame (${buf.length} bytes)`);
  let pos = 5;
  const readVarint = (): number => {
    let n = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (pos >= buf.length) throw new Error('truncated message indexes in schema-registry frame');
      const b = buf[pos++]!;
      n |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return (n >>> 1) ^ -(n & 1); // zigzag, as Confluent writes them
    }
    throw new Error('malformed varint in schema-registry frame');
  };
  // A count of 0 is the short form of [0]; anything but [0] names another message than Envelope.
  const count = readVarint();
  if (count !== 0 && (count !== 1 || readVarint() !== 0)) {
    throw new Error('schema-registry frame names another message than the Envelope');
  }
  return buf.subarray(pos);
}
