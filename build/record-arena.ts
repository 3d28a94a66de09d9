/**
 * The canonical JSON of every record, off the JavaScript heap. At 2M showtimes the records are
 * 850 MB of text: held as strings they filled V8's heap until the build did little but collect
 * garbage; held here they are a few large Buffers, which the collector never scans.
 */
/** The arena's layout: handles sent between threads are read with it. */
export const ARENA_LAYOUT = { chunkBytes: 16 * 2 ** 20, lengthBytes: 4 } as const;
const CHUNK_BYTES = ARENA_LAYOUT.chunkBytes;
const LENGTH_BYTES = ARENA_LAYOUT.lengthBytes;

export class RecordArena {
  private readonly chunks: Buffer[] = [];
  private used = CHUNK_BYTES;

  /** Stores a record's JSON; the handle reads it back. */
  add(json: string): number {
    const length = Buffer.byteLength(json);
    // Validation caps records at 40 kB, far below a chunk.
    if (LENGTH_BYTES + length > CHUNK_BYTES) throw new Error(`a record of ${length} bytes does not fit the arena`);
    if (this.used + LENGTH_BYTES + length > CHUNK_BYTES) {
      // Shared memory: the body workers read records where they lie, without a copy per page.
      this.chunks.push(Buffer.from(new SharedArrayBuffer(CHUNK_BYTES)));
      this.used = 0;
    }
    const chunk = this.chunks.length - 1;
    const at = this.used;
    this.chunks[chunk]!.writeUInt32LE(length, at);
    this.chunks[chunk]!.write(json, at + LENGTH_BYTES, "utf8");
    this.used += LENGTH_BYTES + length;
    return chunk * CHUNK_BYTES + at;
  }

  /** An arena over chunks shared by another thread, for reading (body workers). */
  static over(chunks: readonly SharedArrayBuffer[]): RecordArena {
    const arena = new RecordArena();
    for (const chunk of chunks) arena.adopt(chunk);
    return arena;
  }

  /** Takes in a chunk a worker's arena filled; returns its index here (handles map chunk by chunk). */
  adopt(chunk: SharedArrayBuffer): number {
    this.chunks.push(Buffer.from(chunk));
    // The adopted chunk is not ours to fill: the next add starts a chunk of its own.
    this.used = CHUNK_BYTES;
    return this.chunks.length - 1;
  }

  /** The shared memory behind the arena, for workers; chunks are only ever added. */
  sharedChunks(): SharedArrayBuffer[] {
    return this.chunks.map((chunk) => chunk.buffer as SharedArrayBuffer);
  }

  /** The UTF-8 bytes of a stored record (a view, not a copy). */
  bytes(handle: number): Buffer {
    const chunk = this.chunks[Math.floor(handle / CHUNK_BYTES)]!;
    const at = handle % CHUNK_BYTES;
    return chunk.subarray(at + LENGTH_BYTES, at + LENGTH_BYTES + chunk.readUInt32LE(at));
  }
}
