/**
 * Byte-level encoding shared by every part of the snapshot format: a growable writer and a
 * cursor reader of unsigned LEB128 varints, fixed-width little-endian integers and strings.
 */

/** An append-only byte buffer that doubles when full. */
export class ByteWriter {
  private bytes: Buffer;
  length = 0;

  constructor(initial = 1024) {
    this.bytes = Buffer.allocUnsafe(initial);
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + extra) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }

  u8(value: number): void {
    this.reserve(1);
    this.bytes[this.length++] = value;
  }

  u16(value: number): void {
    this.reserve(2);
    this.length = this.bytes.writeUInt16LE(value, this.length);
  }

  u32(value: number): void {
    this.reserve(4);
    this.length = this.bytes.writeUInt32LE(value, this.length);
  }

  i32(value: number): void {
    this.reserve(4);
    this.length = this.bytes.writeInt32LE(value, this.length);
  }

  f64(value: number): void {
    this.reserve(8);
    this.length = this.bytes.writeDoubleLE(value, this.length);
  }

  /** An unsigned integer below 2^53 as LEB128: 7 bits a byte, low bits first. */
  varint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`varint out of range: ${value}`);
    this.reserve(8);
    while (value >= 0x80) {
      this.bytes[this.length++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.bytes[this.length++] = value;
  }

  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** Bytes prefixed with their length as a varint. */
  chunk(bytes: Uint8Array): void {
    this.varint(bytes.length);
    this.raw(bytes);
  }

  /** Pads with zeros to a multiple of `alignment`. */
  align(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    this.reserve(pad);
    this.bytes.fill(0, this.length, this.length + pad);
    this.length += pad;
  }

  /** The bytes written so far: a copy that owns its memory. */
  finish(): Buffer {
    return Buffer.from(this.bytes.subarray(0, this.length));
  }
}

/** Thrown when encoded bytes do not decode: the caller names the file they came from. */
export class DecodeError extends Error {}

/** Reads what a ByteWriter wrote, checking every bound. */
export class ByteReader {
  constructor(
    readonly bytes: Uint8Array,
    public at = 0,
    readonly end = bytes.length,
  ) {}

  private need(count: number): void {
    if (this.at + count > this.end) throw new DecodeError("data ends early");
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.at++]!;
  }

  u16(): number {
    this.need(2);
    const value = this.bytes[this.at]! | (this.bytes[this.at + 1]! << 8);
    this.at += 2;
    return value;
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      const byte = this.u8();
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
    throw new DecodeError("varint too long");
  }

  raw(length: number): Uint8Array {
    this.need(length);
    const out = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    return out;
  }

  chunk(): Uint8Array {
    return this.raw(this.varint());
  }

  get done(): boolean {
    return this.at >= this.end;
  }
}

/** Zigzag: small signed integers as small unsigned ones (0, -1, 1, -2 … → 0, 1, 2, 3 …). */
export function zigzag(value: number): number {
  return value >= 0 ? value * 2 : -value * 2 - 1;
}

export function unzigzag(value: number): number {
  return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
}
