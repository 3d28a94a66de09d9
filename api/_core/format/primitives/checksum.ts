/**
 * Every stored block ends with a trailer, as in RocksDB's block-based tables: one byte naming how
 * the payload is encoded, then a CRC-32 of payload and type. A block is verified before any of
 * its bytes are used, so a corrupted snapshot is detected, never served.
 */
import { crc32 } from "node:zlib";

export const TRAILER_BYTES = 5;

/** How a block's payload is stored. */
export const BlockType = { raw: 0, deflate: 1 } as const;
export type BlockType = (typeof BlockType)[keyof typeof BlockType];

/** CRC-32 (IEEE, zlib's): native in Node, a few GB/s. */
export function checksumOf(bytes: Uint8Array, previous = 0): number {
  return crc32(bytes, previous);
}

/** Payload and trailer, ready to append to a file. */
export function sealBlock(payload: Uint8Array, type: BlockType): Buffer {
  const out = Buffer.allocUnsafe(payload.length + TRAILER_BYTES);
  out.set(payload, 0);
  out[payload.length] = type;
  out.writeUInt32LE(checksumOf(out.subarray(0, payload.length + 1)), payload.length + 1);
  return out;
}

/** The payload and type of a sealed block, or undefined when its checksum does not match. */
export function unsealBlock(block: Uint8Array): { payload: Uint8Array; type: number } | undefined {
  if (block.length < TRAILER_BYTES) return undefined;
  const end = block.length - TRAILER_BYTES;
  const stored = (block[end + 1]! | (block[end + 2]! << 8) | (block[end + 3]! << 16) | (block[end + 4]! << 24)) >>> 0;
  if (checksumOf(block.subarray(0, end + 1)) !== stored) return undefined;
  return { payload: block.subarray(0, end), type: block[end]! };
}
