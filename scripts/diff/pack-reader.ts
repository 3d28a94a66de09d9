/**
 * Reads one resource's record pack (layout.ts packFiles) of a built snapshot: in list order with a
 * fixed-size buffer per file, or one record at a position. Memory stays bounded whatever the
 * snapshot's size, which is what lets the diff run on millions of showtimes.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { packFiles, resolveInside, type ListResource } from "../../api/_core/layout.js";
import { decodeMeta } from "../../api/_core/render-body.js";
import { compareSortKeys } from "../../api/_core/text.js";

/** One record of a pack: its sort key (the last element is its id), bytes and list position. */
export interface PackRecord {
  sortKey: string[];
  id: string;
  /** A view into the reader's buffer: valid until the next record is read. */
  bytes: Buffer;
  position: number;
}

const CHUNK_BYTES = 1 << 20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A file read front to back through one reusable buffer. */
class SequentialFile {
  private readonly fd: number;
  private buffer = Buffer.alloc(CHUNK_BYTES);
  private start = 0;
  private end = 0;
  private fileOffset = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, "r");
  }

  readDouble(): number {
    this.ensure(8);
    const value = this.buffer.readDoubleLE(this.start);
    this.start += 8;
    return value;
  }

  readText(length: number): string {
    this.ensure(length);
    const text = this.buffer.toString("utf8", this.start, this.start + length);
    this.start += length;
    return text;
  }

  /** The next `length` bytes as a view, valid until the next read. */
  readBytes(length: number): Buffer {
    this.ensure(length);
    const bytes = this.buffer.subarray(this.start, this.start + length);
    this.start += length;
    return bytes;
  }

  close(): void {
    closeSync(this.fd);
  }

  private ensure(length: number): void {
    if (this.end - this.start >= length) return;
    const kept = this.end - this.start;
    const next = length > this.buffer.length ? Buffer.alloc(Math.max(length, CHUNK_BYTES)) : this.buffer;
    this.buffer.copy(next, 0, this.start, this.end);
    this.buffer = next;
    this.start = 0;
    this.end = kept;
    while (this.end < this.buffer.length) {
      const read = readSync(this.fd, this.buffer, this.end, this.buffer.length - this.end, this.fileOffset);
      if (read === 0) break;
      this.end += read;
      this.fileOffset += read;
    }
    if (this.end < length) throw new Error(`${this.path} ends early (truncated snapshot)`);
  }
}

/**
 * The sort key from encoded meta (`[["k1","id"],…]`) without parsing the rest: the diff reads
 * millions of these. Anything unexpected goes to the full decoder, which owns the format.
 */
export function readSortKey(text: string): string[] {
  if (text.charCodeAt(0) !== 0x5b || text.charCodeAt(1) !== 0x5b) return decodeMeta(text).sortKey;
  const key: string[] = [];
  let at = 2;
  for (;;) {
    if (text.charCodeAt(at) !== QUOTE) return decodeMeta(text).sortKey;
    let close = at + 1;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(close);
      if (c === QUOTE) break;
      if (Number.isNaN(c)) return decodeMeta(text).sortKey;
      if (c === BACKSLASH) escaped = true;
      close += c === BACKSLASH ? 2 : 1;
    }
    key.push(escaped ? (JSON.parse(text.slice(at, close + 1)) as string) : text.slice(at + 1, close));
    const after = text.charCodeAt(close + 1);
    if (after === 0x5d) return key;
    if (after !== 0x2c) return decodeMeta(text).sortKey;
    at = close + 2;
  }
}

/** Reads a pack's records in list order, checking that order (a corrupt pack must not diff silently). */
export class PackCursor {
  private readonly records: SequentialFile;
  private readonly recordsIndex: SequentialFile;
  private readonly meta: SequentialFile;
  private readonly metaIndex: SequentialFile;
  private position = 0;
  private recordAt = 0;
  private metaAt = 0;
  private previous: string[] | undefined;

  constructor(
    snapshotDir: string,
    resource: ListResource,
    private readonly count: number,
  ) {
    const files = packFiles(resource);
    const open = (relative: string) => new SequentialFile(resolveInside(snapshotDir, relative));
    [this.records, this.recordsIndex, this.meta, this.metaIndex] = [open(files.records), open(files.recordsIndex), open(files.meta), open(files.metaIndex)];
    if (count > 0) [this.recordAt, this.metaAt] = [this.recordsIndex.readDouble(), this.metaIndex.readDouble()];
  }

  /** The next record, or undefined after the last. */
  next(): PackRecord | undefined {
    if (this.position === this.count) return undefined;
    const recordEnd = this.recordsIndex.readDouble();
    const metaEnd = this.metaIndex.readDouble();
    const sortKey = readSortKey(this.meta.readText(metaEnd - this.metaAt));
    const bytes = this.records.readBytes(recordEnd - this.recordAt);
    [this.recordAt, this.metaAt] = [recordEnd, metaEnd];
    if (this.previous && compareSortKeys(this.previous, sortKey) >= 0) throw new Error(`${this.records.path} is not in list order at record ${this.position}`);
    this.previous = sortKey;
    return { sortKey, id: sortKey[sortKey.length - 1]!, bytes, position: this.position++ };
  }

  close(): void {
    for (const file of [this.records, this.recordsIndex, this.meta, this.metaIndex]) file.close();
  }
}

/** Random access to single records, for the few that the diff pairs out of list order. */
export class PackRandomReader {
  private readonly records: number;
  private readonly index: number;

  constructor(snapshotDir: string, resource: ListResource) {
    const files = packFiles(resource);
    this.records = openSync(resolveInside(snapshotDir, files.records), "r");
    this.index = openSync(resolveInside(snapshotDir, files.recordsIndex), "r");
  }

  /** The record bytes at a list position. */
  read(position: number): Buffer {
    const offsets = Buffer.alloc(16);
    if (readSync(this.index, offsets, 0, 16, position * 8) !== 16) throw new Error(`record ${position} is past the end of the pack`);
    const [start, end] = [offsets.readDoubleLE(0), offsets.readDoubleLE(8)];
    const bytes = Buffer.alloc(end - start);
    if (readSync(this.records, bytes, 0, bytes.length, start) !== bytes.length) throw new Error("the record pack ends early (truncated snapshot)");
    return bytes;
  }

  close(): void {
    closeSync(this.records);
    closeSync(this.index);
  }
}

/** Throws when a pack's index does not hold `count` records, before any diffing starts. */
export function checkPackSize(snapshotDir: string, resource: ListResource, count: number): void {
  const path = resolveInside(snapshotDir, packFiles(resource).recordsIndex);
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (size !== (count + 1) * 8) throw new Error(`${path} holds ${size / 8 - 1} records but the manifest says ${count}`);
  } finally {
    closeSync(fd);
  }
}
