/**
 * Small reads from snapshot files through a bounded LRU of fixed-size blocks. Binary searches
 * touch the same few blocks again and again, so they are served from memory, while memory
 * stays bounded whatever the snapshot's size. Reads are synchronous on purpose: they hit the
 * page cache in microseconds, less than a trip through libuv's thread pool would cost.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { LruCache } from "./lru.js";

// Small blocks: binary searches and views touch scattered places, and a miss reads a whole block.
const BLOCK_SIZE = 4 * 1024;
const MAX_OPEN_FILES = 64;
/** Block keys are file id × this + block index: room for 2^32 blocks (16 TB) per file. */
const BLOCKS_PER_FILE_ID = 2 ** 32;

interface OpenFile {
  fd: number;
  size: number;
  /** Names the file in block keys: a number, where a string of block and path cost a µs a read. */
  id: number;
}

export class BlockCache {
  private readonly blocks: LruCache<number, Buffer>;
  private nextFileId = 0;
  private readonly files = new LruCache<string, OpenFile>(MAX_OPEN_FILES, (_, file) => closeSync(file.fd));

  constructor(maxBytes: number) {
    this.blocks = new LruCache(maxBytes);
  }

  /** Opens (or reuses) a file; ENOENT and friends are thrown as they are. */
  file(path: string): OpenFile {
    let file = this.files.get(path);
    if (!file) {
      const fd = openSync(path, "r");
      file = { fd, size: fstatSync(fd).size, id: this.nextFileId++ };
      this.files.set(path, file);
    }
    return file;
  }

  /**
   * Reads `length` bytes at `offset` straight from the file, bypassing the cache. Not from Buffer's
   * shared 8 kB pool unless `pooled` (a read dropped at once): a small read kept in a cache would
   * pin the whole slab, so the caches' byte bounds would undercount what they hold.
   */
  readDirect(path: string, offset: number, length: number, { pooled = false } = {}): Buffer {
    const { fd } = this.file(path);
    const out = pooled ? Buffer.allocUnsafe(length) : Buffer.allocUnsafeSlow(length);
    let done = 0;
    while (done < length) {
      const n = readSync(fd, out, done, length - done, offset + done);
      if (n === 0) throw new Error("unexpected end of snapshot file");
      done += n;
    }
    return out;
  }

  /** Reads `length` bytes at `offset`, through cached blocks. */
  read(path: string, offset: number, length: number): Buffer {
    const first = Math.floor(offset / BLOCK_SIZE);
    const last = Math.floor((offset + length - 1) / BLOCK_SIZE);
    const start = offset - first * BLOCK_SIZE;
    if (first === last) return this.block(path, first).subarray(start, start + length);
    const parts: Buffer[] = [];
    for (let b = first; b <= last; b++) parts.push(this.block(path, b));
    return Buffer.concat(parts).subarray(start, start + length);
  }

  private block(path: string, index: number): Buffer {
    const file = this.file(path);
    // Ids are never reused: blocks of a file closed since are never found again and age out.
    const key = file.id * BLOCKS_PER_FILE_ID + index;
    let block = this.blocks.get(key);
    if (!block) {
      const start = index * BLOCK_SIZE;
      block = this.readDirect(path, start, Math.max(0, Math.min(BLOCK_SIZE, file.size - start)));
      this.blocks.set(key, block, block.length);
    }
    return block;
  }

  /** Bytes of blocks held now. */
  get cachedBytes(): number {
    return this.blocks.size;
  }

  /** Forgets every block and closes every file (the snapshot was replaced). */
  clear(): void {
    this.files.clear();
    this.blocks.clear();
  }
}
