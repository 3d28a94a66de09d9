/**
 * A list of short texts kept compressed: `chunkSize` texts per chunk, each chunk a dictionary
 * (dictionary.ts) deflated. What is read rarely and a page at a time (the changes feed's deletes)
 * costs a few kB instead of tens of bytes a text. Section layout: u32 count, u32 chunkSize,
 * u32 chunks, u32 offsets[chunks + 1] (into the chunk bytes that follow), chunk bytes.
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { ByteWriter, DecodeError } from "./bytes.js";
import { Dictionary, encodeDictionary } from "./dictionary.js";

export const TEXT_CHUNK = 256;

export function encodeTextChunks(texts: readonly Uint8Array[], chunkSize = TEXT_CHUNK): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < texts.length; at += chunkSize)
    chunks.push(deflateRawSync(encodeDictionary(texts.slice(at, at + chunkSize)), { level: 6 }));
  const out = new ByteWriter(16 + 4 * chunks.length + chunks.reduce((n, c) => n + c.length, 0));
  out.u32(texts.length);
  out.u32(chunkSize);
  out.u32(chunks.length);
  let offset = 0;
  out.u32(0);
  for (const chunk of chunks) out.u32((offset += chunk.length));
  for (const chunk of chunks) out.raw(chunk);
  return out.finish();
}

/** Reads texts of an encoded list; the chunk read last is kept inflated. */
export class TextChunks {
  readonly count: number;
  private readonly chunkSize: number;
  private readonly offsets: Uint32Array;
  private readonly data: Uint8Array;
  private current = -1;
  private dictionary: Dictionary | undefined;

  constructor(bytes: Uint8Array) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.byteLength < 12) throw new DecodeError("text chunks cut short");
    this.count = view.getUint32(0, true);
    this.chunkSize = view.getUint32(4, true);
    const chunks = view.getUint32(8, true);
    const header = 12 + 4 * (chunks + 1);
    if (header > bytes.byteLength || this.chunkSize === 0 || Math.ceil(this.count / this.chunkSize) !== chunks)
      throw new DecodeError("text chunks have the wrong shape");
    this.offsets = new Uint32Array(chunks + 1);
    for (let c = 0; c <= chunks; c++) this.offsets[c] = view.getUint32(12 + 4 * c, true);
    this.data = bytes.subarray(header);
    if (this.offsets[chunks] !== this.data.byteLength) throw new DecodeError("text chunks do not cover their bytes");
  }

  /** Text i, as its bytes. */
  entry(i: number): Uint8Array {
    if (!(i >= 0 && i < this.count)) throw new DecodeError(`text ${i} of ${this.count} does not exist`);
    const c = Math.floor(i / this.chunkSize);
    if (c !== this.current) {
      const [start, end] = [this.offsets[c]!, this.offsets[c + 1]!];
      if (start > end) throw new DecodeError("text chunk offsets out of order");
      let inflated: Uint8Array;
      try {
        inflated = inflateRawSync(this.data.subarray(start, end));
      } catch {
        throw new DecodeError("a text chunk does not inflate");
      }
      this.dictionary = new Dictionary(inflated);
      const expected = Math.min(this.chunkSize, this.count - c * this.chunkSize);
      if (this.dictionary.count !== expected) throw new DecodeError("a text chunk holds the wrong count");
      this.current = c;
    }
    return this.dictionary!.entry(i - c * this.chunkSize);
  }
}
