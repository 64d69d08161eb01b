// A minimal protobuf wire-format writer, for the small response bodies and the test/benchmark
// request encoder. Nested messages are written into a child writer and copied in: simple, and fast
// enough for anything that is not the ingest hot path.

const TWO_POW_32 = 0x1_0000_0000;

export class ProtoWriter {
  private buf: Buffer = Buffer.allocUnsafe(256);
  private len = 0;

  tag(field: number, wireType: number): this {
    return this.varint(field * 8 + wireType);
  }

  /** A non-negative integer up to 2^53. */
  varint(value: number): this {
    this.reserve(10);
    let v = value;
    while (v >= 0x80) {
      this.buf[this.len++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.len++] = v;
    return this;
  }

  /** Any int64/uint64 (two's complement for negatives, as protobuf int64 does). */
  varintBig(value: bigint): this {
    let v = BigInt.asUintN(64, value);
    this.reserve(10);
    while (v >= 0x80n) {
      this.buf[this.len++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.len++] = Number(v);
    return this;
  }

  /** int32 semantics: negatives are sign-extended to 10 bytes. */
  int32(value: number): this {
    return value < 0 ? this.varintBig(BigInt(value)) : this.varint(value);
  }

  fixed32(value: number): this {
    this.reserve(4);
    this.buf.writeUInt32LE(value >>> 0, this.len);
    this.len += 4;
    return this;
  }

  fixed64(value: bigint): this {
    const v = BigInt.asUintN(64, value);
    this.reserve(8);
    this.buf.writeUInt32LE(Number(v % BigInt(TWO_POW_32)), this.len);
    this.buf.writeUInt32LE(Number(v / BigInt(TWO_POW_32)), this.len + 4);
    this.len += 8;
    return this;
  }

  double(value: number): this {
    this.reserve(8);
    this.buf.writeDoubleLE(value, this.len);
    this.len += 8;
    return this;
  }

  bytes(value: Uint8Array): this {
    this.varint(value.length);
    this.reserve(value.length);
    this.buf.set(value, this.len);
    this.len += value.length;
    return this;
  }

  string(value: string): this {
    return this.bytes(Buffer.from(value, 'utf8'));
  }

  /** Writes field `field` as a length-delimited message built by `build`. */
  message(field: number, build: (w: ProtoWriter) => void): this {
    const child = new ProtoWriter();
    build(child);
    return this.tag(field, 2).bytes(child.finish());
  }

  finish(): Uint8Array {
    return new Uint8Array(this.buf.buffer, this.buf.byteOffset, this.len).slice();
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
}
