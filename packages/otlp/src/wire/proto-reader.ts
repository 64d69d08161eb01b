// A minimal protobuf wire-format reader. The OTLP decoder is hand-written on top of it instead of
// going through protobufjs reflection: it builds the final span objects in one pass, with no
// intermediate message objects and no Long conversions (see docs/performance.md).

import { WireFormatError } from './wire-format-error.ts';

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_FIXED32 = 5;

export class ProtoReader {
  readonly buf: Buffer;
  pos = 0;
  /** Low and high 32 bits of the last 64-bit value read by `varint64` or `fixed64`. */
  lo = 0;
  hi = 0;

  constructor(buf: Buffer) {
    this.buf = buf;
  }

  get length(): number {
    return this.buf.length;
  }

  /** A field tag; field number 0 never occurs in valid input. */
  tag(): number {
    const tag = this.varint32();
    if (tag >>> 3 === 0) throw new WireFormatError(`invalid field number 0 at offset ${this.pos}`);
    return tag;
  }

  /** A varint truncated to its low 32 bits, unsigned (negative enums come out > 2^31). */
  varint32(): number {
    const buf = this.buf;
    let pos = this.pos;
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = buf[pos++];
      if (byte === undefined) throw new WireFormatError('truncated varint');
      if (shift < 28) value |= (byte & 0x7f) << shift;
      else if (shift === 28) value |= (byte & 0x0f) << 28;
      if (byte < 0x80) break;
      if (shift >= 63) throw new WireFormatError('varint longer than 10 bytes');
    }
    this.pos = pos;
    return value >>> 0;
  }

  /** A 64-bit varint into `lo`/`hi`. */
  varint64(): void {
    const buf = this.buf;
    let pos = this.pos;
    let lo = 0;
    let hi = 0;
    for (let i = 0; ; i++) {
      const byte = buf[pos++];
      if (byte === undefined) throw new WireFormatError('truncated varint');
      const bits = byte & 0x7f;
      if (i < 4) lo |= bits << (7 * i);
      else if (i === 4) {
        lo |= bits << 28;
        hi |= bits >>> 4;
      } else hi |= bits << (7 * i - 32);
      if (byte < 0x80) break;
      if (i >= 9) throw new WireFormatError('varint longer than 10 bytes');
    }
    this.pos = pos;
    this.lo = lo >>> 0;
    this.hi = hi >>> 0;
  }

  /** A fixed64 into `lo`/`hi`. */
  fixed64(): void {
    const pos = this.pos;
    if (pos + 8 > this.buf.length) throw new WireFormatError('truncated fixed64');
    this.lo = this.buf.readUInt32LE(pos);
    this.hi = this.buf.readUInt32LE(pos + 4);
    this.pos = pos + 8;
  }

  fixed32(): number {
    const pos = this.pos;
    if (pos + 4 > this.buf.length) throw new WireFormatError('truncated fixed32');
    this.pos = pos + 4;
    return this.buf.readUInt32LE(pos);
  }

  double(): number {
    const pos = this.pos;
    if (pos + 8 > this.buf.length) throw new WireFormatError('truncated double');
    this.pos = pos + 8;
    return this.buf.readDoubleLE(pos);
  }

  /** Reads a length prefix and returns the end offset of the payload, which starts at `pos`. */
  lengthDelimitedEnd(): number {
    const len = this.varint32();
    const end = this.pos + len;
    if (end > this.buf.length) throw new WireFormatError(`length ${len} runs past the end of the body`);
    return end;
  }

  string(): string {
    const end = this.lengthDelimitedEnd();
    const start = this.pos;
    this.pos = end;
    return start === end ? '' : this.buf.toString('utf8', start, end);
  }

  skip(wireType: number): void {
    switch (wireType) {
      case WIRE_VARINT:
        this.varint32();
        return;
      case WIRE_FIXED64:
        this.advance(8);
        return;
      case WIRE_LEN:
        this.pos = this.lengthDelimitedEnd();
        return;
      case WIRE_FIXED32:
        this.advance(4);
        return;
      default:
        // Groups (3, 4) do not exist in proto3 and no OTLP encoder emits them; 6 and 7 are invalid.
        // Refusing them is what makes JSON and random text fail fast instead of half-parsing.
        throw new WireFormatError(`unsupported wire type ${wireType} at offset ${this.pos}`);
    }
  }

  /** Throws unless the message that should end at `end` ended exactly there. */
  expectEnd(end: number): void {
    if (this.pos !== end) throw new WireFormatError(`field overruns its enclosing message at offset ${this.pos}`);
  }

  private advance(n: number): void {
    if (this.pos + n > this.buf.length) throw new WireFormatError('truncated fixed-width field');
    this.pos += n;
  }
}
