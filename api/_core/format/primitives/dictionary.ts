/**
 * Dictionaries: each value that repeats across showtimes (start times, films, attribute sets,
 * screens, provenance times and providers) is stored once, as the escaped text it has inside JSON
 * strings, and records refer to it by a small code (Parquet's dictionary pages, Lucene's doc
 * values). A dictionary section is `u32 count, u32 offsets[count + 1], bytes`; the reader keeps
 * it resident, since rendering copies from it for every record.
 */
import { ByteWriter } from "./bytes.js";
import { PAD, PaddedBytes } from "./page-buffer.js";

/** The text a string has between the quotes of its JSON form: what JSON.stringify writes. */
export function escapeJson(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

/** Bytes that are their own JSON string content: printable ASCII but the quote and the backslash. */
const NEEDS_ESCAPING = /[^\x20\x21\x23-\x5b\x5d-\x7f]/;

/**
 * A dictionary of plain texts (ids) as their JSON string content: itself when no entry needs
 * escaping (ids are printable ASCII in practice: one scan at start-up), else re-encoded.
 */
export function escapedDictionary(plain: Dictionary): Dictionary {
  if (
    !NEEDS_ESCAPING.test(Buffer.from(plain.bytes.buffer, plain.bytes.byteOffset, plain.bytes.length).toString("latin1"))
  )
    return plain;
  return new Dictionary(encodeDictionary(Array.from({ length: plain.count }, (_, i) => escapeJson(plain.text(i)))));
}

/** Collects values and numbers them in first-seen order, counting how often each occurs. */
export class DictionaryBuilder {
  private readonly index = new Map<string, number>();
  readonly values: string[] = [];
  readonly counts: number[] = [];

  /** The provisional number of a value (first-seen order). */
  add(value: string): number {
    let at = this.index.get(value);
    if (at === undefined) {
      at = this.values.length;
      this.index.set(value, at);
      this.values.push(value);
      this.counts.push(0);
    }
    this.counts[at]!++;
    return at;
  }

  /**
   * The final order: by `compare`, or most frequent first (small codes are one varint byte).
   * Returns the values in that order and the code of each provisional number.
   */
  finish(compare?: (a: string, b: string) => number): { values: string[]; codeOf: Int32Array } {
    const order = this.values.map((_, i) => i);
    if (compare) order.sort((a, b) => compare(this.values[a]!, this.values[b]!) || a - b);
    else order.sort((a, b) => this.counts[b]! - this.counts[a]! || (this.values[a]! < this.values[b]! ? -1 : 1));
    const codeOf = new Int32Array(order.length);
    order.forEach((provisional, code) => (codeOf[provisional] = code));
    return { values: order.map((i) => this.values[i]!), codeOf };
  }
}

/** Encodes a dictionary section from entries in their final form (text as UTF-8, or bytes). */
export function encodeDictionary(entries: ReadonlyArray<string | Uint8Array>): Uint8Array {
  const bytes = entries.map((entry) => (typeof entry === "string" ? Buffer.from(entry, "utf8") : entry));
  const out = new ByteWriter(16 + 4 * entries.length + bytes.reduce((sum, b) => sum + b.length, 0));
  out.u32(entries.length);
  let at = 0;
  out.u32(0);
  for (const entry of bytes) out.u32((at += entry.length));
  for (const entry of bytes) out.raw(entry);
  return out.finish();
}

/** A resident dictionary: entry i is bytes[offsets[i], offsets[i + 1]). */
export class Dictionary {
  readonly count: number;
  readonly offsets: Uint32Array;
  readonly bytes: Uint8Array;

  constructor(section: Uint8Array) {
    const view = new DataView(section.buffer, section.byteOffset, section.byteLength);
    if (section.byteLength < 8) throw new RangeError("dictionary section too short");
    this.count = view.getUint32(0, true);
    const tableEnd = 4 + 4 * (this.count + 1);
    if (tableEnd > section.byteLength) throw new RangeError("dictionary offsets run past the section");
    // The offsets in place when the section is aligned and the host little-endian (the format's
    // byte order): a dictionary of 70,000 entries then costs its bytes once, not twice.
    const aligned = (section.byteOffset + 4) % 4 === 0 && new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
    this.offsets = aligned
      ? new Uint32Array(section.buffer, section.byteOffset + 4, this.count + 1)
      : new Uint32Array(this.count + 1);
    if (!aligned) for (let i = 0; i <= this.count; i++) this.offsets[i] = view.getUint32(4 + 4 * i, true);
    this.bytes = section.subarray(tableEnd);
    for (let i = 0; i < this.count; i++) {
      if (this.offsets[i]! > this.offsets[i + 1]!) throw new RangeError("dictionary offsets out of order");
    }
    if (this.offsets[0] !== 0 || this.offsets[this.count] !== this.bytes.length)
      throw new RangeError("dictionary offsets do not cover its bytes");
  }

  /** Entry i as text (escaped JSON content, or plain ASCII for instant keys). */
  text(i: number): string {
    return Buffer.from(
      this.bytes.buffer,
      this.bytes.byteOffset + this.offsets[i]!,
      this.offsets[i + 1]! - this.offsets[i]!,
    ).toString("utf8");
  }

  entry(i: number): Uint8Array {
    return this.bytes.subarray(this.offsets[i]!, this.offsets[i + 1]!);
  }
}

/**
 * Every entry of a dictionary wrapped in fixed JSON text, in one buffer: what the renderer copies
 * per record (`","filmId":"` + film id, say), so a field costs one copy instead of three.
 */
export class Fragments extends PaddedBytes {
  readonly start: Int32Array;
  readonly end: Int32Array;
  private readonly headLength: number;
  private readonly tailLength: number;

  constructor(dictionary: Dictionary, before: string, after = "") {
    const head = Buffer.from(before);
    const tail = Buffer.from(after);
    const count = dictionary.count;
    super(dictionary.bytes.length + count * (head.length + tail.length));
    this.start = new Int32Array(count);
    this.end = new Int32Array(count);
    this.headLength = head.length;
    this.tailLength = tail.length;
    // Built when the first request opens the lists, by code not yet optimized: a native copy per
    // piece costs a cold start less than byte loops (20 against 30 ms for the largest market's).
    const out = this.bytes;
    const source = dictionary.bytes;
    const offsets = dictionary.offsets;
    let at = 0;
    for (let i = 0; i < count; i++) {
      this.start[i] = at;
      out.set(head, at);
      at += head.length;
      const from = offsets[i]!;
      const to = offsets[i + 1]!;
      out.set(source.subarray(from, to), at);
      at += to - from;
      out.set(tail, at);
      at += tail.length;
      this.end[i] = at;
    }
  }

  /** Entry i's own text, without the JSON around it. */
  text(i: number): string {
    return Buffer.from(
      this.bytes.buffer,
      this.bytes.byteOffset + this.start[i]! + this.headLength,
      this.end[i]! - this.start[i]! - this.headLength - this.tailLength,
    ).toString("utf8");
  }
}

/**
 * A large dictionary as rendering reads it: its entries padded for word copies, and the fixed
 * text around them kept once. A record then copies three ranges rather than one, but a table of
 * 70,000 wrapped entries is neither built at start-up nor held in memory twice.
 */
export class WrappedTexts {
  readonly data: PaddedBytes;
  readonly offsets: Uint32Array;
  readonly count: number;
  readonly head: PaddedBytes;
  readonly tail: PaddedBytes;

  constructor(dictionary: Dictionary, before: string, after = "") {
    this.data = new PaddedBytes(dictionary.bytes);
    this.offsets = dictionary.offsets;
    this.count = dictionary.count;
    this.head = new PaddedBytes(Buffer.from(before));
    this.tail = new PaddedBytes(Buffer.from(after));
  }

  /** Entry i's bytes, rendered with the text around them. */
  length(i: number): number {
    return this.head.bytes.length - PAD + this.offsets[i + 1]! - this.offsets[i]! + this.tail.bytes.length - PAD;
  }

  text(i: number): string {
    return Buffer.from(
      this.data.bytes.buffer,
      this.data.bytes.byteOffset + this.offsets[i]!,
      this.offsets[i + 1]! - this.offsets[i]!,
    ).toString("utf8");
  }
}
