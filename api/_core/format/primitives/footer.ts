/**
 * The fixed 32 bytes that end every data file of the snapshot (after Lucene's per-file footers):
 * what kind of file it is, where its data ends, and a digest of every block checksum in it, which
 * the manifest repeats so that a file from another build is refused before any of it is read.
 *
 *   0  magic (8 ASCII bytes)   8  page payload size (paged files; 0 otherwise)
 *  12  table-of-contents length 16  data length (float64)   24  digest   28  CRC-32 of bytes 0..27
 */
import { checksumOf } from "./checksum.js";
import type { DiskFile } from "./disk-file.js";
import { SnapshotError } from "./errors.js";

export const FOOTER_BYTES = 32;
export const PAGED_MAGIC = "CLS3PAGE";
export const BLOCKS_MAGIC = "CLS3BLKS";

export interface Footer {
  magic: string;
  pageSize: number;
  tocLength: number;
  dataLength: number;
  digest: number;
}

/** Folds one block checksum into a file digest (the CRC-32 of all of them, in file order). */
export function foldDigest(digest: number, blockChecksum: number): number {
  const bytes = Buffer.allocUnsafe(4);
  bytes.writeUInt32LE(blockChecksum >>> 0, 0);
  return checksumOf(bytes, digest);
}

export function encodeFooter(footer: Footer): Buffer {
  const out = Buffer.alloc(FOOTER_BYTES);
  out.write(footer.magic, 0, "latin1");
  out.writeUInt32LE(footer.pageSize, 8);
  out.writeUInt32LE(footer.tocLength, 12);
  out.writeDoubleLE(footer.dataLength, 16);
  out.writeUInt32LE(footer.digest >>> 0, 24);
  out.writeUInt32LE(checksumOf(out.subarray(0, 28)), 28);
  return out;
}

/** Reads and checks a file's footer against its magic and the digest the manifest gives. */
export function readFooter(file: DiskFile, magic: string, expectedDigest: number): Footer {
  if (file.size < FOOTER_BYTES) throw new SnapshotError(file.name, "is too short to be a snapshot file");
  const bytes = file.read(file.size - FOOTER_BYTES, FOOTER_BYTES);
  if (bytes.readUInt32LE(28) !== checksumOf(bytes.subarray(0, 28)))
    throw new SnapshotError(file.name, "its footer fails its checksum");
  const footer: Footer = {
    magic: bytes.toString("latin1", 0, 8),
    pageSize: bytes.readUInt32LE(8),
    tocLength: bytes.readUInt32LE(12),
    dataLength: bytes.readDoubleLE(16),
    digest: bytes.readUInt32LE(24),
  };
  if (footer.magic !== magic) throw new SnapshotError(file.name, `is not a ${magic} file`);
  if (footer.digest !== expectedDigest >>> 0)
    throw new SnapshotError(file.name, "belongs to another build than manifest.json");
  if (!(footer.dataLength >= 0) || footer.dataLength + footer.tocLength + FOOTER_BYTES !== file.size) {
    throw new SnapshotError(file.name, "its footer does not match its size");
  }
  return footer;
}
