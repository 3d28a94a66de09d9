/** The bounded LRU behind every server-side cache and memo: the bound holds, the oldest goes first. */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { LruCache } from "../api/_core/lru.js";

describe("LruCache", () => {
  // At the bound, just past it, and one entry larger than the bound (kept alone: the latest value is served).
  test.each([
    { bound: 10, sizes: [4, 4], kept: ["a", "b"] },
    { bound: 10, sizes: [4, 4, 2], kept: ["a", "b", "c"] },
    { bound: 10, sizes: [4, 4, 3], kept: ["b", "c"] },
    { bound: 10, sizes: [11], kept: ["a"] },
    { bound: 10, sizes: [5, 11], kept: ["b"] },
  ])("bound $bound with sizes $sizes keeps $kept", ({ bound, sizes, kept }) => {
    const evicted: string[] = [];
    const cache = new LruCache<string, number>(bound, (key) => evicted.push(key));
    const keys = sizes.map((_, i) => String.fromCharCode(97 + i));
    sizes.forEach((size, i) => cache.set(keys[i]!, i, size));
    expect(keys.filter((key) => cache.get(key) !== undefined)).toEqual(kept);
    expect(evicted).toEqual(keys.filter((key) => !kept.includes(key)));
    expect(cache.size).toBe(kept.reduce((sum, key) => sum + sizes[keys.indexOf(key)]!, 0));
  });

  test("a hit on the oldest entry keeps it when the map is full", () => {
    const cache = new LruCache<number, number>(4);
    for (let i = 0; i < 4; i++) cache.set(i, i);
    // Four later sets: 0 is older than half the map's length, so a hit moves it to the young end.
    expect(cache.get(0)).toBe(0);
    cache.set(4, 4);
    expect(cache.get(0)).toBe(0);
    expect(cache.get(1)).toBeUndefined();
  });

  test("replacing a key counts its new size, not both", () => {
    const cache = new LruCache<string, string>(10);
    cache.set("a", "x", 6);
    cache.set("a", "y", 8);
    expect(cache.size).toBe(8);
    expect(cache.get("a")).toBe("y");
  });

  test("clear empties it and tells the eviction hook", () => {
    const evicted: string[] = [];
    const cache = new LruCache<string, number>(10, (key) => evicted.push(key));
    cache.set("a", 1);
    cache.set("b", 2);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get("a")).toBeUndefined();
    expect(evicted).toEqual(["a", "b"]);
  });

  /** The cache's rules on a plain array, oldest first: slow, and obviously right. */
  class ArrayModel {
    entries: Array<{ key: number; value: number; size: number; tick: number }> = [];
    tick = 0;
    evicted: number[] = [];
    constructor(readonly bound: number) {}
    get(key: number): number | undefined {
      const at = this.entries.findIndex((e) => e.key === key);
      if (at === -1) return undefined;
      const entry = this.entries[at]!;
      if (this.tick - entry.tick > this.entries.length / 2) {
        this.entries.splice(at, 1);
        this.entries.push(entry);
        entry.tick = ++this.tick;
      }
      return entry.value;
    }
    clear(): void {
      this.evicted.push(...this.entries.map((e) => e.key));
      this.entries = [];
    }
    set(key: number, value: number, size: number): void {
      const at = this.entries.findIndex((e) => e.key === key);
      if (at !== -1) this.entries.splice(at, 1);
      this.entries.push({ key, value, size, tick: ++this.tick });
      const total = () => this.entries.reduce((sum, e) => sum + e.size, 0);
      while (total() > this.bound && this.entries.length > 1) this.evicted.push(this.entries.shift()!.key);
    }
  }

  test("behaves as the array model under any sequence of sets, gets and clears", () => {
    // Clears are rare, or the map would seldom hold enough entries to evict in interesting orders.
    const operation = fc.oneof(
      {
        weight: 20,
        arbitrary: fc.record({
          op: fc.constant("set" as const),
          key: fc.integer({ min: 0, max: 30 }),
          size: fc.integer({ min: 1, max: 12 }),
        }),
      },
      { weight: 20, arbitrary: fc.record({ op: fc.constant("get" as const), key: fc.integer({ min: 0, max: 30 }) }) },
      { weight: 1, arbitrary: fc.record({ op: fc.constant("clear" as const) }) },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.array(operation, { maxLength: 400 }), (bound, operations) => {
        const evicted: number[] = [];
        const cache = new LruCache<number, number>(bound, (key) => evicted.push(key));
        const model = new ArrayModel(bound);
        operations.forEach((operation, i) => {
          if (operation.op === "set") {
            cache.set(operation.key, i, operation.size);
            model.set(operation.key, i, operation.size);
          } else if (operation.op === "get") {
            expect(cache.get(operation.key)).toBe(model.get(operation.key));
          } else {
            cache.clear();
            model.clear();
          }
          expect(evicted).toEqual(model.evicted);
          expect(cache.size).toBe(model.entries.reduce((sum, e) => sum + e.size, 0));
        });
      }),
      { numRuns: 300 },
    );
  });
});
