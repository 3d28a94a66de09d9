/**
 * Stored response bodies: every default-limit page of the four unfiltered lists and every
 * get-one of a cinema or film, as final gzip bytes with their entity tag, so the commonest
 * requests cost one lookup and one read. A body is found by a 160-bit SHA-256 of what it answers
 * (keyed like git's pack index: a 256-entry fan-out, then sorted keys) in bodies.index; each body
 * is a checksummed block of its own in bodies.blocks.
 */
import { createHash } from "node:crypto";
import type { BlockAddress, BlockFile, BlockFileWriter } from "./block-file.js";
import { SnapshotError } from "./errors.js";
import { BODIES_FILE, BODY_INDEX_FILE } from "./files.js";
import type { DataFileFacts, ListResource } from "./manifest.js";
import type { PagedFile, PagedFileWriter, Section } from "./paged-file.js";

export const KEY_BYTES = 20;
const ENTRY_BYTES = KEY_BYTES + 12;
const FANOUT_BYTES = 256 * 4;
export const ETAG_LENGTH = 22;
const KEYS_SECTION = "bodies.keys";

/** What a stored body answers. `after` is the sort key of the record before the page (null: the first page). */
export type BodyKey =
  | { kind: "page"; resource: ListResource; after: readonly string[] | null }
  | { kind: "one"; resource: "cinemas" | "films"; id: string };

export function bodyKeyOf(key: BodyKey): Buffer {
  const parts = key.kind === "one" ? ["one", key.resource, key.id] : ["page", key.resource, key.after];
  return createHash("sha256").update(JSON.stringify(parts)).digest().subarray(0, KEY_BYTES);
}

export interface StoredBody {
  /** Strong entity tag of the identity bytes (body-tag.ts). */
  etag: string;
  gzip: Buffer;
}

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
