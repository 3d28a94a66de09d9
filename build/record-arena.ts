/**
 * The canonical JSON of every record, off the JavaScript heap. At 2M showtimes the records are
 * 850 MB of text: held as strings they filled V8's heap until the build did little but collect
 * garbage; held here they are a few large Buffers, which the collector never scans.
 */
const CHUNK_BYTES = 16 * 2 ** 20;
const LENGTH_BYTES = 4;

export class RecordArena {
  private readonly chunks: Buffer[] = [];
  private used = CHUNK_BYTES;

  /** Stores a record's JSON; the handle reads it back. */
  add(json: string): number {
    const length = Buffer.byteLength(json);
    // Validation caps records at 40 kB, far below a chunk.
    if (LENGTH_BYTES + length > CHUNK_BYTES) throw new Error(`a record of ${length} bytes does not fit the arena`);
    if (this.used + LENGTH_BYTES + length > CHUNK_BYTES) {
      this.chunks.push(Buffer.allocUnsafe(CHUNK_BYTES));
      this.used = 0;
    }
    const chunk = this.chunks.length - 1;
    const at = this.used;
    this.chunks[chunk]!.writeUInt32LE(length, at);
    this.chunks[chunk]!.write(json, at + LENGTH_BYTES, "utf8");
    this.used += LENGTH_BYTES + length;
    return chunk * CHUNK_BYTES + at;
  }

  /** The UTF-8 bytes of a stored record (a view, not a copy). */
  bytes(handle: number): Buffer {
    const chunk = this.chunks[Math.floor(handle / CHUNK_BYTES)]!;
    const at = handle % CHUNK_BYTES;
    return chunk.subarray(at + LENGTH_BYTES, at + LENGTH_BYTES + chunk.readUInt32LE(at));
  }
}
