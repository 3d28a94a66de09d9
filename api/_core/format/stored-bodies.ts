/**
 * Stored response bodies: every default-limit page of the four unfiltered lists and every
 * get-one of a cinema or film, as final gzip bytes with their entity tag, so the commonest
 * requests cost one lookup and one read. A body is found by a 160-bit SHA-256 of what it answers
 * (keyed like git's pack index: a 256-entry fan-out, then sorted keys); the index is the block at
 * the end of bodies.blocks, and each body is a checksummed block of its own.
 */
import { createHash } from "node:crypto";
import type { BlockAddress, BlockFile, BlockFileWriter } from "./block-file.js";
import { SnapshotError } from "./errors.js";
import type { ListResource } from "./manifest.js";

export const KEY_BYTES = 20;
const ENTRY_BYTES = KEY_BYTES + 12;
const FANOUT_BYTES = 256 * 4;
export const ETAG_LENGTH = 22;

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

/** Appends bodies to bodies.blocks and writes their index as the file's last block. */
export class StoredBodyWriter {
  private readonly entries: Array<{ key: Buffer } & BlockAddress> = [];

  constructor(private readonly file: BlockFileWriter) {}

  add(key: Buffer, body: StoredBody): void {
    if (key.length !== KEY_BYTES || body.etag.length !== ETAG_LENGTH) throw new Error("malformed stored body");
    const payload = Buffer.concat([Buffer.from(body.etag, "latin1"), body.gzip]);
    this.entries.push({ key, ...this.file.append(payload) });
  }

  /** Writes the index block and the footer; returns what the manifest records of the file. */
  finish(): { bytes: number; digest: number } {
    const sorted = [...this.entries].sort((a, b) => Buffer.compare(a.key, b.key));
    const index = Buffer.alloc(FANOUT_BYTES + sorted.length * ENTRY_BYTES);
    const counts = new Uint32Array(256);
    sorted.forEach((entry, i) => {
      if (i > 0 && entry.key.equals(sorted[i - 1]!.key)) throw new Error(`two stored bodies share the key ${entry.key.toString("hex")}`);
      counts[entry.key[0]!]!++;
      const at = FANOUT_BYTES + i * ENTRY_BYTES;
      entry.key.copy(index, at);
      index.writeDoubleLE(entry.offset, at + KEY_BYTES);
      index.writeUInt32LE(entry.length, at + KEY_BYTES + 8);
    });
    let total = 0;
    for (let b = 0; b < 256; b++) index.writeUInt32LE((total += counts[b]!), b * 4);
    return this.file.finish(index);
  }
}

/** Finds and reads stored bodies; the index is read (and verified) once, on first use. */
export class StoredBodies {
  private index: Buffer | undefined;

  constructor(private readonly file: BlockFile) {}

  private loadIndex(): Buffer {
    if (this.index) return this.index;
    // A view of the block as read: the read owns exactly these bytes (and the trailer), no copy.
    const block = this.file.trailingBlock();
    const index = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
    const count = (index.length - FANOUT_BYTES) / ENTRY_BYTES;
    if (!Number.isInteger(count) || count < 0 || index.readUInt32LE(255 * 4) !== count) {
      throw new SnapshotError(this.file.file.name, "its body index has the wrong shape");
    }
    return (this.index = index);
  }

  /** The block address of a key's body, or undefined when nothing is stored for it. */
  find(key: Uint8Array): BlockAddress | undefined {
    const index = this.loadIndex();
    const first = key[0]!;
    let low = first === 0 ? 0 : index.readUInt32LE((first - 1) * 4);
    let high = index.readUInt32LE(first * 4);
    while (low < high) {
      const mid = (low + high) >>> 1;
      const at = FANOUT_BYTES + mid * ENTRY_BYTES;
      const order = Buffer.compare(index.subarray(at, at + KEY_BYTES), key);
      if (order === 0) return { offset: index.readDoubleLE(at + KEY_BYTES), length: index.readUInt32LE(at + KEY_BYTES + 8) };
      if (order < 0) low = mid + 1;
      else high = mid;
    }
    return undefined;
  }

  read(address: BlockAddress): StoredBody {
    const payload = this.file.read(address);
    if (payload.length <= ETAG_LENGTH) throw new SnapshotError(this.file.file.name, `the body at ${address.offset} is truncated`);
    const bytes = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
    return { etag: bytes.toString("latin1", 0, ETAG_LENGTH), gzip: bytes.subarray(ETAG_LENGTH) };
  }

  /** Every key and address, in key order (tools and tests). */
  entries(): Array<{ key: string } & BlockAddress> {
    const index = this.loadIndex();
    const count = (index.length - FANOUT_BYTES) / ENTRY_BYTES;
    return Array.from({ length: count }, (_, i) => {
      const at = FANOUT_BYTES + i * ENTRY_BYTES;
      return { key: index.toString("hex", at, at + KEY_BYTES), offset: index.readDoubleLE(at + KEY_BYTES), length: index.readUInt32LE(at + KEY_BYTES + 8) };
    });
  }
}
