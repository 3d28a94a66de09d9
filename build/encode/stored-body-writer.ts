/** Writes stored bodies (layout/body-index.ts): each a sealed block of bodies.blocks, indexed in bodies.index. */
import type { BlockAddress, BlockFileWriter } from "../../api/_core/format/primitives/block-file.js";
import { BODIES_FILE, BODY_INDEX_FILE } from "../../api/_core/format/primitives/files.js";
import type { PagedFileWriter } from "../../api/_core/format/primitives/paged-file.js";
import {
  ENTRY_BYTES,
  ETAG_LENGTH,
  FANOUT_BYTES,
  KEY_BYTES,
  KEYS_SECTION,
  type StoredBody,
} from "../../api/_core/format/layout/body-index.js";
import type { DataFileFacts } from "../../api/_core/format/layout/manifest.js";

/** Appends bodies to bodies.blocks and writes their index into bodies.index. */
export class StoredBodyWriter {
  private readonly entries: Array<{ key: Buffer } & BlockAddress> = [];

  constructor(
    private readonly file: BlockFileWriter,
    private readonly index: PagedFileWriter,
  ) {}

  add(key: Buffer, body: StoredBody): void {
    if (key.length !== KEY_BYTES || body.etag.length !== ETAG_LENGTH) throw new Error("malformed stored body");
    const payload = Buffer.concat([Buffer.from(body.etag, "latin1"), body.gzip]);
    this.entries.push({ key, ...this.file.append(payload) });
  }

  /** Finishes both files; returns what the manifest records of them. */
  finish(): Record<typeof BODIES_FILE | typeof BODY_INDEX_FILE, DataFileFacts> {
    const sorted = [...this.entries].sort((a, b) => Buffer.compare(a.key, b.key));
    const index = Buffer.alloc(FANOUT_BYTES + sorted.length * ENTRY_BYTES);
    const counts = new Uint32Array(256);
    sorted.forEach((entry, i) => {
      if (i > 0 && entry.key.equals(sorted[i - 1]!.key))
        throw new Error(`two stored bodies share the key ${entry.key.toString("hex")}`);
      counts[entry.key[0]!]!++;
      const at = FANOUT_BYTES + i * ENTRY_BYTES;
      entry.key.copy(index, at);
      index.writeDoubleLE(entry.offset, at + KEY_BYTES);
      index.writeUInt32LE(entry.length, at + KEY_BYTES + 8);
    });
    let total = 0;
    for (let b = 0; b < 256; b++) index.writeUInt32LE((total += counts[b]!), b * 4);
    this.index.add(KEYS_SECTION, index);
    return { [BODIES_FILE]: this.file.finish(), [BODY_INDEX_FILE]: this.index.finish() };
  }
}
