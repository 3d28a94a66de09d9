/**
 * Record indexes by id for the history stage, which matches every record of a snapshot (2M
 * showtimes) with the same id's record in the previous one: an open-addressing table keyed by
 * 96 bits of the id's bytes (three 32-bit hashes), in typed arrays, so the match keeps no string
 * and no Map entry per record. Two of 4M ids agreeing on 96 bits is a 1 in 10^16 event per build,
 * far below the 1 in 2^53 per record that the records' digests already accept; equal keys are
 * still chained, so no record is ever lost from the table.
 */

/** The three hashes of `bytes[0, length)`, written into `into`: FNV-1a and two multiply-xorshifts with other seeds. */
export function idHashes(bytes: Uint8Array, length: number, into: Uint32Array): void {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  let c = 0x2545f491;
  for (let i = 0; i < length; i++) {
    const byte = bytes[i]!;
    a = Math.imul(a ^ byte, 0x01000193);
    b = Math.imul(b ^ byte, 0x5bd1e995);
    b ^= b >>> 15;
    c = Math.imul(c + byte, 0xcc9e2d51);
    c ^= c >>> 13;
  }
  into[0] = a >>> 0;
  into[1] = (b ^ Math.imul(length, 0x27d4eb2f)) >>> 0;
  into[2] = Math.imul(c ^ (c >>> 16), 0x85ebca6b) >>> 0;
}

const NONE = -1;

/**
 * Values (0 .. capacity - 1) under 96-bit id hashes; values under equal hashes are chained.
 */
export class IdTable {
  private readonly first: Uint32Array;
  private readonly second: Uint32Array;
  private readonly third: Uint32Array;
  private readonly heads: Int32Array;
  private readonly chain: Int32Array;
  private readonly mask: number;

  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.first = new Uint32Array(size);
    this.second = new Uint32Array(size);
    this.third = new Uint32Array(size);
    this.heads = new Int32Array(size).fill(NONE);
    this.chain = new Int32Array(capacity).fill(NONE);
    this.mask = size - 1;
  }

  private slotOf(a: number, b: number, c: number): number {
    let slot = (a ^ Math.imul(b, 0x85ebca6b)) & this.mask;
    while (this.heads[slot] !== NONE && (this.first[slot] !== a || this.second[slot] !== b || this.third[slot] !== c))
      slot = (slot + 1) & this.mask;
    return slot;
  }

  /** Adds `value` under the hashes `a`, `b`, `c` (idHashes). */
  add(a: number, b: number, c: number, value: number): void {
    const slot = this.slotOf(a, b, c);
    this.chain[value] = this.heads[slot]!;
    this.first[slot] = a;
    this.second[slot] = b;
    this.third[slot] = c;
    this.heads[slot] = value;
  }

  /** The last value added under these hashes, or -1; `next` gives the one added before it. */
  head(a: number, b: number, c: number): number {
    return this.heads[this.slotOf(a, b, c)]!;
  }

  next(value: number): number {
    return this.chain[value]!;
  }
}
