/**
 * Decoded blocks kept in memory, bounded in bytes. Blocks are numbered densely, so a block is
 * found by its number in an array, with no hashing; eviction is CLOCK (second chance): a block
 * read since the hand last passed it is passed over once more. A page that reads a hundred
 * blocks at random costs a hundred array loads, where a Map-based LRU moved a hundred entries.
 */
export class BlockCache<T extends { readonly size: number }> {
  private readonly slots: Array<T | undefined>;
  private readonly referenced: Uint8Array;
  private hand = 0;
  private total = 0;

  constructor(
    count: number,
    private readonly maxBytes: number,
  ) {
    this.slots = new Array<T | undefined>(count).fill(undefined);
    this.referenced = new Uint8Array(count);
  }

  get(n: number): T | undefined {
    const block = this.slots[n];
    if (block) this.referenced[n] = 1;
    return block;
  }

  set(n: number, block: T): void {
    const old = this.slots[n];
    if (old) this.total -= old.size;
    this.slots[n] = block;
    this.referenced[n] = 1;
    this.total += block.size;
    this.evict(n);
  }

  /** Evicts until within bounds; the block just added (`keep`) is the last to go. */
  private evict(keep: number): void {
    const count = this.slots.length;
    for (let steps = 0; this.total > this.maxBytes && steps < 2 * count; steps++) {
      const n = this.hand;
      this.hand = (this.hand + 1) % count;
      const block = this.slots[n];
      if (!block || n === keep) continue;
      if (this.referenced[n]) {
        this.referenced[n] = 0;
        continue;
      }
      this.slots[n] = undefined;
      this.total -= block.size;
    }
  }

  /** Bytes held now, as counted against the bound. */
  get size(): number {
    return this.total;
  }
}
