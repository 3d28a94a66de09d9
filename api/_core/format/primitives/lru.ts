/** A least-recently-used map bounded by a total size (bytes, or 1 per entry for counts). */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; size: number; tick: number }>();
  private total = 0;
  /** Counts moves to the young end; an entry's tick says when it last moved. */
  private tick = 0;
  /**
   * Walks the entries oldest first, and is kept between evictions: everything before it has been
   * evicted or moved to the young end. A fresh iterator per eviction steps over every deleted slot
   * at the head of the Map's table again (V8 compacts it only when the table is rebuilt): 17 µs
   * an eviction at 17k entries, most of a composed page's time when its records were not cached.
   */
  private oldest = this.entries.entries();

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
      const [oldestKey, oldest] = this.nextOldest();
      this.entries.delete(oldestKey);
      this.total -= oldest.size;
      this.onEvict?.(oldestKey, oldest.value);
    }
  }

  clear(): void {
    if (this.onEvict) for (const [key, entry] of this.entries) this.onEvict(key, entry.value);
    this.entries.clear();
    this.oldest = this.entries.entries();
    this.total = 0;
  }

  /** The oldest entry (the map is not empty). */
  private nextOldest(): [K, { value: V; size: number; tick: number }] {
    let next = this.oldest.next();
    // Not reached while entries remain ahead of the walk; a new walk is still correct, only slower.
    if (next.done) next = (this.oldest = this.entries.entries()).next();
    return next.value!;
  }

  get size(): number {
    return this.total;
  }
}
