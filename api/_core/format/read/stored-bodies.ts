/** Finds and reads stored bodies (layout/body-index.ts). */
import type { BlockAddress, BlockFile } from "../primitives/block-file.js";
import { SnapshotError } from "../primitives/errors.js";
import type { PagedFile, Section } from "../primitives/paged-file.js";
import {
  ENTRY_BYTES,
  ETAG_LENGTH,
  FANOUT_BYTES,
  KEY_BYTES,
  KEYS_SECTION,
  type StoredBody,
} from "../layout/body-index.js";

export { bodyKeyOf, type BodyKey, type StoredBody } from "../layout/body-index.js";

/**
 * Finds and reads stored bodies. The index is read a page at a time (a lookup reads the fan-out
 * and a few pages of one bucket), so a cold start that serves one stored page reads a few kB.
 */
export class StoredBodies {
  private readonly keys: Section;
  private readonly count: number;

  constructor(
    private readonly file: BlockFile,
    private readonly index: PagedFile,
  ) {
    this.keys = index.section(KEYS_SECTION);
    this.count = (this.keys.length - FANOUT_BYTES) / ENTRY_BYTES;
    if (!Number.isInteger(this.count) || this.count < 0)
      throw new SnapshotError(index.file.name, "its body index has the wrong shape");
  }

  private fanout(b: number): number {
    return b < 0 ? 0 : this.index.u32(this.keys.offset + 4 * b);
  }

  /** The block address of a key's body, or undefined when nothing is stored for it. */
  find(key: Uint8Array): BlockAddress | undefined {
    const first = key[0]!;
    let low = this.fanout(first - 1);
    let high = this.fanout(first);
    if (low > high || high > this.count)
      throw new SnapshotError(this.index.file.name, "its fan-out table is inconsistent");
    while (low < high) {
      const mid = (low + high) >>> 1;
      const entry = this.entry(mid);
      const order = Buffer.compare(entry.subarray(0, KEY_BYTES), key);
      if (order === 0) return { offset: entry.readDoubleLE(KEY_BYTES), length: entry.readUInt32LE(KEY_BYTES + 8) };
      if (order < 0) low = mid + 1;
      else high = mid;
    }
    return undefined;
  }

  private entry(i: number): Buffer {
    const bytes = this.index.read(this.keys.offset + FANOUT_BYTES + i * ENTRY_BYTES, ENTRY_BYTES);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  read(address: BlockAddress): StoredBody {
    const payload = this.file.read(address);
    if (payload.length <= ETAG_LENGTH)
      throw new SnapshotError(this.file.file.name, `the body at ${address.offset} is truncated`);
    const bytes = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
    return { etag: bytes.toString("latin1", 0, ETAG_LENGTH), gzip: bytes.subarray(ETAG_LENGTH) };
  }

  /** Every key and address, in key order (tools and tests). */
  entries(): Array<{ key: string } & BlockAddress> {
    return Array.from({ length: this.count }, (_, i) => {
      const entry = this.entry(i);
      return {
        key: entry.toString("hex", 0, KEY_BYTES),
        offset: entry.readDoubleLE(KEY_BYTES),
        length: entry.readUInt32LE(KEY_BYTES + 8),
      };
    });
  }
}
