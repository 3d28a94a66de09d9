/**
 * A block file: variable-size blocks, each sealed with a type and checksum trailer (checksum.ts),
 * addressed by (offset, length) from an index kept elsewhere, then a footer. Stored response
 * bodies and showtime record blocks live in block files.
 */
import { inflateRawSync } from "node:zlib";
import { BlockType, sealBlock, TRAILER_BYTES, unsealBlock } from "./checksum.js";
import type { DiskFile } from "./disk-file.js";
import { SnapshotError } from "./errors.js";
import { BLOCKS_MAGIC, encodeFooter, foldDigest, readFooter, type Footer } from "./footer.js";

/** Where a block lies in its file: offset and length, trailer included. */
export interface BlockAddress {
  offset: number;
  length: number;
}

/** Appends sealed blocks to a sink (the build's output writer). */
export class BlockFileWriter {
  private offset = 0;
  private digest = 0;

  constructor(private readonly sink: { append(bytes: Buffer): void; close(): void }) {}

  append(payload: Uint8Array, type: BlockType = BlockType.raw): BlockAddress {
    const sealed = sealBlock(payload, type);
    this.sink.append(sealed);
    this.digest = foldDigest(this.digest, sealed.readUInt32LE(sealed.length - 4));
    const address = { offset: this.offset, length: sealed.length };
    this.offset += sealed.length;
    return address;
  }

  /** Writes the footer and closes the sink; returns what the manifest records of the file. */
  finish(): { bytes: number; digest: number } {
    const footer = encodeFooter({
      magic: BLOCKS_MAGIC,
      pageSize: 0,
      tocLength: 0,
      dataLength: this.offset,
      digest: this.digest,
    });
    this.sink.append(footer);
    this.sink.close();
    return { bytes: this.offset + footer.length, digest: this.digest >>> 0 };
  }
}

/** Reads verified blocks of a block file. */
export class BlockFile {
  private readonly footer: Footer;

  constructor(
    readonly file: DiskFile,
    digest: number,
  ) {
    this.footer = readFooter(file, BLOCKS_MAGIC, digest);
  }

  /** The payload of the block at `address`, checked and decoded; a mismatch throws SnapshotError. */
  read(address: BlockAddress): Uint8Array {
    const { offset, length } = address;
    if (!(length >= TRAILER_BYTES) || !(offset >= 0) || offset + length > this.footer.dataLength) {
      throw new SnapshotError(this.file.name, `no block of ${length} bytes at ${offset}`);
    }
    const block = unsealBlock(this.file.read(offset, length));
    if (!block) throw new SnapshotError(this.file.name, `the block at ${offset} fails its checksum`);
    if (block.type === BlockType.raw) return block.payload;
    if (block.type === BlockType.deflate) {
      try {
        return inflateRawSync(block.payload);
      } catch {
        throw new SnapshotError(this.file.name, `the block at ${offset} does not inflate`);
      }
    }
    throw new SnapshotError(this.file.name, `the block at ${offset} has unknown type ${block.type}`);
  }
}
