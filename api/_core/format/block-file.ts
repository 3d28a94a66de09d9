/**
 * A block file: variable-size blocks, each sealed with a type and checksum trailer (checksum.ts),
 * addressed by (offset, length) from an index; then, optionally, one more block the footer points
 * to (a file's own index, as RocksDB keeps an SST's index block in it); then the footer. Stored
 * response bodies and showtime record blocks live in block files.
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

  /** Writes the trailing block (if any) and the footer, closes the sink; returns what the manifest records. */
  finish(trailing?: Uint8Array): { bytes: number; digest: number } {
    let tocLength = 0;
    if (trailing) {
      const sealed = sealBlock(trailing, BlockType.raw);
      this.sink.append(sealed);
      this.digest = foldDigest(this.digest, sealed.readUInt32LE(sealed.length - 4));
      tocLength = sealed.length;
    }
    const footer = encodeFooter({ magic: BLOCKS_MAGIC, pageSize: 0, tocLength, dataLength: this.offset, digest: this.digest });
    this.sink.append(footer);
    this.sink.close();
    return { bytes: this.offset + tocLength + footer.length, digest: this.digest >>> 0 };
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

  /** The block the footer points to, checked. */
  trailingBlock(): Uint8Array {
    if (this.footer.tocLength === 0) throw new SnapshotError(this.file.name, "has no index block");
    const block = unsealBlock(this.file.read(this.footer.dataLength, this.footer.tocLength));
    if (!block) throw new SnapshotError(this.file.name, "its index block fails its checksum");
    return block.payload;
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
