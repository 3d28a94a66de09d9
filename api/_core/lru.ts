/** A least-recently-used map bounded by a total size (bytes, or 1 per entry for counts). */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; size: number; tick: number }>();
  private total = 0;
  /** Counts moves to the young end; an entry's tick says when it last moved. */
  private tick = 0;

  constructor(
    private readonly maxSize: number,
    private readonly onEvict?: (key: K, value: V) => void,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Re-inserting moves the entry to the young end of the Map's insertion order. An entry
    // moved within the last half of the map's length is young enough already: skipping the
    // move keeps a hot hit to one lookup (moves were most of a composed page's cache time).
    if (this.tick - entry.tick > this.entries.size / 2) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      entry.tick = ++this.tick;
    }
    return entry.value;
  }

  set(key: K, value: V, size = 1): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.total -= old.size;
    }
    this.entries.set(key, { value, size, tick: ++this.tick });
    this.total += size;
    while (this.total > this.maxSize && this.entries.size > 1) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.entries.delete(oldestKey);
      this.total -= oldest.size;
      this.onEvict?.(oldestKey, oldest.value);
    }
  }

  clear(): void {
    if (this.onEvict) for (const [key, entry] of this.entries) this.onEvict(key, entry.value);
    this.entries.clear();
    this.total = 0;
  }

  get size(): number {
    return this.total;
  }
}
