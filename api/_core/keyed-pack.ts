/**
 * A keyed pack: many small values in one data file, found through a sorted index, after git's
 * pack index. One file per precomputed body meant hundreds of thousands of file creations per
 * build (most of its time at 2M showtimes) and as many files in the function bundle; a pack is
 * written sequentially and read with one index probe and one positioned read.
 *
 * Index file: a fan-out table of 256 uint32 (entries whose key starts with a byte ≤ b), then the
 * entries sorted by key, each KEY_BYTES of key, a float64 offset and a uint32 length.
 */
export const KEY_BYTES = 20;
export const ENTRY_BYTES = KEY_BYTES + 12;
export const FANOUT_BYTES = 256 * 4;

export interface PackSlot {
  offset: number;
  length: number;
}

/** Random access to an index file's bytes (the reader passes its block cache). */
export type ReadBytes = (offset: number, length: number) => Buffer;

/** Encodes the index of a pack from its entries, in any order. */
export function encodePackIndex(entries: ReadonlyArray<{ key: Buffer } & PackSlot>): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(a.key, b.key));
  const out = Buffer.alloc(FANOUT_BYTES + sorted.length * ENTRY_BYTES);
  const counts = new Uint32Array(256);
  sorted.forEach((entry, i) => {
    if (entry.key.length !== KEY_BYTES) throw new Error(`pack keys are ${KEY_BYTES} bytes`);
    if (i > 0 && entry.key.equals(sorted[i - 1]!.key)) throw new Error(`duplicate pack key ${entry.key.toString("hex")}`);
    counts[entry.key[0]!]!++;
    const at = FANOUT_BYTES + i * ENTRY_BYTES;
    entry.key.copy(out, at);
    out.writeDoubleLE(entry.offset, at + KEY_BYTES);
    out.writeUInt32LE(entry.length, at + KEY_BYTES + 8);
  });
  let total = 0;
  for (let b = 0; b < 256; b++) out.writeUInt32LE((total += counts[b]!), b * 4);
  return out;
}

/** Finds a key in an index: the fan-out narrows to one first byte, then a binary search. */
export function findInPackIndex(read: ReadBytes, key: Buffer): PackSlot | undefined {
  const first = key[0]!;
  let low = first === 0 ? 0 : read((first - 1) * 4, 4).readUInt32LE(0);
  let high = read(first * 4, 4).readUInt32LE(0);
  while (low < high) {
    const mid = (low + high) >>> 1;
    const entry = read(FANOUT_BYTES + mid * ENTRY_BYTES, ENTRY_BYTES);
    const order = Buffer.compare(entry.subarray(0, KEY_BYTES), key);
    if (order === 0) return { offset: entry.readDoubleLE(KEY_BYTES), length: entry.readUInt32LE(KEY_BYTES + 8) };
    if (order < 0) low = mid + 1;
    else high = mid;
  }
  return undefined;
}

/** Every entry of an index, in key order (tests and tools). */
export function listPackIndex(index: Buffer): Array<{ key: string } & PackSlot> {
  const count = (index.length - FANOUT_BYTES) / ENTRY_BYTES;
  return Array.from({ length: count }, (_, i) => {
    const at = FANOUT_BYTES + i * ENTRY_BYTES;
    return { key: index.toString("hex", at, at + KEY_BYTES), offset: index.readDoubleLE(at + KEY_BYTES), length: index.readUInt32LE(at + KEY_BYTES + 8) };
  });
}
