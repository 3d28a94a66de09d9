/**
 * Reads one resource's record pack (layout.ts packFiles) of a built snapshot: in list order as a
 * stream with a fixed-size buffer per file, or one record at a position. Memory stays bounded
 * whatever the snapshot's size, which is what lets the diff run on millions of showtimes.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { packFiles, resolveInside, type ListResource } from "../../api/_core/layout.js";
import { decodeMeta } from "../../api/_core/render-body.js";

/** One record of a pack: its sort key (the last element is its id), bytes and list position. */
export interface PackRecord {
  sortKey: string[];
  id: string;
  bytes: Buffer;
  position: number;
}

const CHUNK_BYTES = 1 << 20;

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

  /** The next `length` bytes; valid only until the next call (copy what must outlive it). */
  take(length: number): Buffer {
    if (this.end - this.start < length) this.refill(length);
    if (this.end - this.start < length) throw new Error(`${this.path} ends early (truncated snapshot)`);
    const bytes = this.buffer.subarray(this.start, this.start + length);
    this.start += length;
    return bytes;
  }

  private refill(length: number): void {
    const kept = this.end - this.start;
    const size = Math.max(CHUNK_BYTES, length);
    const next = size > this.buffer.length ? Buffer.alloc(size) : this.buffer;
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
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Streams a pack's records in list order (which is sort-key order). */
export function* readPack(snapshotDir: string, resource: ListResource, count: number): Generator<PackRecord> {
  const files = packFiles(resource);
  const open = (relative: string) => new SequentialFile(resolveInside(snapshotDir, relative));
  const handles = [open(files.records), open(files.recordsIndex), open(files.meta), open(files.metaIndex)] as const;
  const [records, recordsIndex, meta, metaIndex] = handles;
  try {
    let recordAt = recordsIndex.take(8).readDoubleLE(0);
    let metaAt = metaIndex.take(8).readDoubleLE(0);
    for (let position = 0; position < count; position++) {
      const recordEnd = recordsIndex.take(8).readDoubleLE(0);
      const metaEnd = metaIndex.take(8).readDoubleLE(0);
      const { sortKey } = decodeMeta(meta.take(metaEnd - metaAt).toString("utf8"));
      const bytes = Buffer.from(records.take(recordEnd - recordAt));
      [recordAt, metaAt] = [recordEnd, metaEnd];
      yield { sortKey, id: sortKey[sortKey.length - 1]!, bytes, position };
    }
  } finally {
    for (const handle of handles) handle.close();
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
