/**
 * A paged file: named sections laid end to end in one logical byte space, stored as fixed-size
 * pages that each carry a checksum trailer, then a table of contents and a footer. Indexes,
 * dictionaries, position lists and the small resources' records live here; a page is verified the
 * first time it is read and then kept in a bounded cache, so a lookup costs a few memory reads.
 */
import { BlockType, sealBlock, TRAILER_BYTES, unsealBlock } from "./checksum.js";
import type { DiskFile } from "./disk-file.js";
import { SnapshotError } from "./errors.js";
import { encodeFooter, foldDigest, PAGED_MAGIC, readFooter } from "./footer.js";
import type { LruCache } from "./lru.js";

export const PAGE_BYTES = 4096;
/** Sections start on this boundary: fixed-size entries of up to 64 bytes then never straddle a page. */
const SECTION_ALIGN = 64;

export interface Section {
  offset: number;
  length: number;
}

interface TableOfContents {
  logicalLength: number;
  sections: Array<[name: string, offset: number, length: number]>;
}

/** Writes sections into pages, streaming them to a sink. */
export class PagedFileWriter {
  private readonly page = Buffer.alloc(PAGE_BYTES);
  private used = 0;
  private logical = 0;
  private physical = 0;
  private digest = 0;
  private readonly sections: TableOfContents["sections"] = [];
  private open: { name: string; offset: number } | undefined;

  constructor(private readonly sink: { append(bytes: Buffer): void; close(): void }) {}

  /** Adds a whole section. */
  add(name: string, bytes: Uint8Array): void {
    this.begin(name);
    this.put(bytes);
    this.end();
  }

  begin(name: string): void {
    if (this.open) throw new Error(`section ${this.open.name} is still open`);
    if (this.sections.some(([known]) => known === name)) throw new Error(`section ${name} is written twice`);
    this.put(new Uint8Array((SECTION_ALIGN - (this.logical % SECTION_ALIGN)) % SECTION_ALIGN));
    this.open = { name, offset: this.logical };
  }

  put(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) {
      const take = Math.min(PAGE_BYTES - this.used, bytes.length - at);
      this.page.set(bytes.subarray(at, at + take), this.used);
      this.used += take;
      at += take;
      this.logical += take;
      if (this.used === PAGE_BYTES) this.flushPage();
    }
  }

  end(): void {
    if (!this.open) throw new Error("no section is open");
    this.sections.push([this.open.name, this.open.offset, this.logical - this.open.offset]);
    this.open = undefined;
  }

  private flushPage(): void {
    if (this.used === 0) return;
    const sealed = sealBlock(this.page.subarray(0, this.used), BlockType.raw);
    this.sink.append(sealed);
    this.digest = foldDigest(this.digest, sealed.readUInt32LE(sealed.length - 4));
    this.physical += sealed.length;
    this.used = 0;
  }

  /** Writes the last page, the table of contents and the footer; returns what the manifest records. */
  finish(): { bytes: number; digest: number } {
    if (this.open) throw new Error(`section ${this.open.name} is still open`);
    this.flushPage();
    const toc: TableOfContents = { logicalLength: this.logical, sections: this.sections };
    const sealedToc = sealBlock(Buffer.from(JSON.stringify(toc)), BlockType.raw);
    this.sink.append(sealedToc);
    const footer = encodeFooter({
      magic: PAGED_MAGIC,
      pageSize: PAGE_BYTES,
      tocLength: sealedToc.length,
      dataLength: this.physical,
      digest: this.digest,
    });
    this.sink.append(footer);
    this.sink.close();
    return { bytes: this.physical + sealedToc.length + footer.length, digest: this.digest >>> 0 };
  }
}

function parseToc(name: string, bytes: Uint8Array): TableOfContents {
  let toc: unknown;
  try {
    toc = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch {
    throw new SnapshotError(name, "its table of contents is not JSON");
  }
  const t = toc as TableOfContents;
  const isEntry = (e: unknown) =>
    Array.isArray(e) &&
    e.length === 3 &&
    typeof e[0] === "string" &&
    Number.isSafeInteger(e[1]) &&
    Number.isSafeInteger(e[2]) &&
    e[1] >= 0 &&
    e[2] >= 0;
  if (!t || !Number.isSafeInteger(t.logicalLength) || !Array.isArray(t.sections) || !t.sections.every(isEntry)) {
    throw new SnapshotError(name, "its table of contents has the wrong shape");
  }
  if (t.sections.some(([, offset, length]) => offset + length > t.logicalLength))
    throw new SnapshotError(name, "a section runs past the data");
  return t;
}

/** Reads verified pages of a paged file through a cache of pages. */
export class PagedFile {
  private readonly sections = new Map<string, Section>();
  private readonly logicalLength: number;
  private readonly pageCount: number;

  constructor(
    readonly file: DiskFile,
    digest: number,
    readonly cache: LruCache<number, Uint8Array>,
  ) {
    const footer = readFooter(file, PAGED_MAGIC, digest);
    if (footer.pageSize !== PAGE_BYTES)
      throw new SnapshotError(file.name, `has pages of ${footer.pageSize} bytes, not ${PAGE_BYTES}`);
    const toc = unsealBlock(file.read(footer.dataLength, footer.tocLength));
    if (!toc) throw new SnapshotError(file.name, "its table of contents fails its checksum");
    const parsed = parseToc(file.name, toc.payload);
    this.logicalLength = parsed.logicalLength;
    this.pageCount = Math.ceil(parsed.logicalLength / PAGE_BYTES);
    const expectedPhysical = parsed.logicalLength + this.pageCount * TRAILER_BYTES;
    if (expectedPhysical !== footer.dataLength)
      throw new SnapshotError(file.name, "its pages do not add up to its data length");
    for (const [name, offset, length] of parsed.sections) this.sections.set(name, { offset, length });
  }

  /** Whether the file has a section of this name (one added to the format later may be missing). */
  hasSection(name: string): boolean {
    return this.sections.has(name);
  }

  /** A named section; a missing one means the file is not what this reader expects. */
  section(name: string): Section {
    const found = this.sections.get(name);
    if (!found) throw new SnapshotError(this.file.name, `has no section ${name}`);
    return found;
  }

  /** A verified page's payload, from the cache or the disk. */
  private page(index: number, cached: boolean): Uint8Array {
    let payload = cached ? this.cache.get(index) : undefined;
    if (payload) return payload;
    const start = index * (PAGE_BYTES + TRAILER_BYTES);
    const length = Math.min(PAGE_BYTES, this.logicalLength - index * PAGE_BYTES) + TRAILER_BYTES;
    const page = unsealBlock(this.file.read(start, length));
    if (!page) throw new SnapshotError(this.file.name, `page ${index} fails its checksum`);
    payload = page.payload;
    if (cached) this.cache.set(index, payload, payload.length);
    return payload;
  }

  /** `length` logical bytes at `offset`: a view of a cached page, or a copy when they span pages. */
  read(offset: number, length: number, cached = true): Uint8Array {
    if (offset < 0 || length < 0 || offset + length > this.logicalLength) {
      throw new SnapshotError(this.file.name, `a read of ${length} bytes at ${offset} runs past the data`);
    }
    const first = Math.floor(offset / PAGE_BYTES);
    const start = offset - first * PAGE_BYTES;
    if (start + length <= PAGE_BYTES) return this.page(first, cached).subarray(start, start + length);
    const out = new Uint8Array(length);
    for (let done = 0; done < length; ) {
      const at = offset + done;
      const index = Math.floor(at / PAGE_BYTES);
      const within = at - index * PAGE_BYTES;
      const take = Math.min(PAGE_BYTES - within, length - done);
      out.set(this.page(index, cached).subarray(within, within + take), done);
      done += take;
    }
    return out;
  }

  /**
   * A whole section in memory of its own, read past the cache (resident data): one read of the
   * pages it spans, each verified before its bytes are copied out.
   */
  readSection(name: string): Uint8Array {
    const { offset, length } = this.section(name);
    if (length === 0) return new Uint8Array(0);
    const first = Math.floor(offset / PAGE_BYTES);
    const last = Math.floor((offset + length - 1) / PAGE_BYTES);
    const stride = PAGE_BYTES + TRAILER_BYTES;
    const lastLength = Math.min(PAGE_BYTES, this.logicalLength - last * PAGE_BYTES) + TRAILER_BYTES;
    // One read, then the pages' payloads moved left over their trailers in place: fresh memory is
    // dear (on a virtual machine every first touch of a page traps), so none is touched twice.
    const pages = this.file.read(first * stride, (last - first) * stride + lastLength);
    let done = 0;
    for (let index = first; index <= last; index++) {
      const start = (index - first) * stride;
      const page = unsealBlock(pages.subarray(start, index === last ? start + lastLength : start + stride));
      if (!page) throw new SnapshotError(this.file.name, `page ${index} fails its checksum`);
      const within = index === first ? offset - first * PAGE_BYTES : 0;
      const take = Math.min(page.payload.length - within, length - done);
      pages.copyWithin(done, start + within, start + within + take);
      done += take;
    }
    return new Uint8Array(pages.buffer, pages.byteOffset, length);
  }

  /** A whole section of little-endian uint32 values, resident. */
  readUint32Section(name: string): Uint32Array {
    const bytes = this.readSection(name);
    if (bytes.byteLength % 4 !== 0)
      throw new SnapshotError(this.file.name, `section ${name} is not whole uint32 values`);
    return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  }

  /** A whole section of little-endian float64 values, resident. */
  readFloat64Section(name: string): Float64Array {
    const bytes = this.readSection(name);
    if (bytes.byteLength % 8 !== 0)
      throw new SnapshotError(this.file.name, `section ${name} is not whole float64 values`);
    return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
  }

  /** A little-endian uint32 at a logical offset (through the cache). */
  u32(offset: number): number {
    const b = this.read(offset, 4);
    return (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
  }
}
