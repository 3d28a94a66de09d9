/**
 * The growing byte buffer a response body is written into, and the copy that fills it. Records
 * are copied in as byte ranges of dictionaries and blocks, most of them a few dozen bytes: V8 copies
 * such ranges fastest as 32-bit words through DataViews (five times a byte loop, and a native call
 * per range costs more than the copy). A word copy may read and write up to three bytes past the
 * range, so every buffer copied from or into keeps PAD spare bytes at its end.
 */
export const PAD = 8;

/** Bytes with PAD spare bytes after them, and a DataView over the whole. */
export class PaddedBytes {
  readonly bytes: Uint8Array;
  readonly view: DataView;

  constructor(source: Uint8Array | number) {
    const length = typeof source === "number" ? source : source.length;
    this.bytes = new Uint8Array(length + PAD);
    if (typeof source !== "number") this.bytes.set(source);
    this.view = new DataView(this.bytes.buffer);
  }
}

/** Latin-1 text as padded bytes: the fixed JSON text around fields. */
export function literal(text: string): PaddedBytes {
  return new PaddedBytes(new Uint8Array(Buffer.from(text, "latin1")));
}

/**
 * Copies source[start, end) to out at `at` in 32-bit words; returns the new end. May read up to
 * three bytes past `end` and write up to three past the returned end: both buffers keep PAD spare.
 */
export function copyWords(out: DataView, at: number, source: DataView, start: number, end: number): number {
  const stop = at + (end - start);
  while (at < stop) {
    out.setUint32(at, source.getUint32(start, true), true);
    at += 4;
    start += 4;
  }
  return stop;
}

export class PageBuffer {
  bytes: Uint8Array;
  view: DataView;
  length = 0;
  /** The bytes as a Buffer, for UTF-8 writes: one view per buffer, not one per write. */
  private asBuffer: Buffer;

  constructor(capacity = 64 * 1024) {
    this.bytes = new Uint8Array(capacity + PAD);
    this.view = new DataView(this.bytes.buffer);
    this.asBuffer = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length);
  }

  /** Makes room for `extra` more bytes, plus the spare bytes a word copy may touch. */
  ensure(extra: number): void {
    if (this.length + extra + PAD <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + extra + PAD) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
    this.asBuffer = Buffer.from(grown.buffer, grown.byteOffset, grown.length);
  }

  /** Appends padded bytes [start, end). */
  copy(source: PaddedBytes, start: number, end: number): void {
    this.ensure(end - start);
    this.length = copyWords(this.view, this.length, source.view, start, end);
  }

  byte(value: number): void {
    this.ensure(1);
    this.bytes[this.length++] = value;
  }

  /** Appends text as UTF-8. */
  text(value: string): void {
    this.ensure(value.length * 3);
    this.length += this.asBuffer.write(value, this.length, "utf8");
  }

  /** Appends ASCII text byte by byte: cheaper than a UTF-8 write for a few characters (a number). */
  ascii(value: string): void {
    this.ensure(value.length);
    for (let i = 0; i < value.length; i++) this.bytes[this.length++] = value.charCodeAt(i);
  }

  /** Appends bytes that need not be padded. */
  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** The bytes written, as a view of this buffer: valid until it is written to again. */
  lend(): Buffer {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.length);
  }

  /** The bytes written, in memory of their own (caches keep response bodies). */
  finish(): Buffer {
    const out = Buffer.allocUnsafeSlow(this.length);
    out.set(this.bytes.subarray(0, this.length));
    return out;
  }

  reset(): void {
    this.length = 0;
  }
}

/** Buffers above this size are let go rather than pooled (an unusually large page). */
const MAX_POOLED_BYTES = 1024 * 1024;

/**
 * Page buffers lent out for one response each and given back once the response is written.
 * A composed page is sent straight from the buffer it was composed in: a fresh 40 kB buffer per
 * response cost more than composing it (the allocation, the copy, and the page faults of memory
 * the allocator keeps giving back to the system). A buffer never given back is simply collected.
 */
export class PagePool {
  private readonly free: PageBuffer[] = [];

  constructor(private readonly keep = 64) {}

  acquire(): PageBuffer {
    const page = this.free.pop() ?? new PageBuffer();
    page.reset();
    return page;
  }

  release(page: PageBuffer): void {
    if (this.free.length < this.keep && page.bytes.length <= MAX_POOLED_BYTES && !this.free.includes(page))
      this.free.push(page);
  }
}
