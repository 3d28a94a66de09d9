/**
 * The bounded LRU behind every server-side cache and memo: the bound holds whatever the entry sizes,
 * the oldest goes first, and entries read stay. No test depends on how the cache tunes its moves
 * (when a hit is young enough to skip moving its entry): only on what any tuning must keep.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { LruCache } from "../api/_core/format/primitives/lru.js";

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

  test("an entry read between sets stays, while entries never read are evicted oldest first", () => {
    const evicted: string[] = [];
    const cache = new LruCache<string, number>(10, (key) => evicted.push(key));
    cache.set("hot", 0);
    for (let i = 0; i < 100; i++) {
      cache.set(`cold-${i}`, i);
      expect(cache.get("hot"), `after ${i + 1} sets`).toBe(0);
    }
    // 101 entries of size 1 through a bound of 10: 91 evicted, every one cold, in the order they were set.
    expect(evicted).toEqual(Array.from({ length: 91 }, (_, i) => `cold-${i}`));
    expect(cache.size).toBe(10);
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

  /**
   * The rules any tuning of the cache keeps, checked against a record of what was set, read and
   * evicted (not against a copy of the cache's own bookkeeping):
   * - the bound holds, or the cache holds just the entry set last (it is larger than the bound);
   * - the entry set last is always held, and its size is counted once;
   * - a get answers the latest value set for a key, or nothing once the key was reported evicted;
   * - eviction is by age: an entry set after another's last use (set or get) outlives it.
   */
  test("under any sequence of sets, gets and clears, with any sizes and bound", () => {
    // Clears are rare, or the map would seldom hold enough entries to evict in interesting orders;
    // few keys and long sequences, or gets would seldom hit and evictions would be rare.
    const operation = fc.oneof(
      {
        weight: 20,
        arbitrary: fc.record({
          op: fc.constant("set" as const),
          key: fc.integer({ min: 0, max: 15 }),
          size: fc.integer({ min: 1, max: 12 }),
        }),
      },
      { weight: 20, arbitrary: fc.record({ op: fc.constant("get" as const), key: fc.integer({ min: 0, max: 15 }) }) },
      { weight: 1, arbitrary: fc.record({ op: fc.constant("clear" as const) }) },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.array(operation, { minLength: 100, maxLength: 400 }),
        (bound, operations) => {
          const held = new Map<number, { value: number; size: number; setAt: number; usedAt: number }>();
          let now = 0;
          let clearing = false;
          const cache = new LruCache<number, number>(bound, (key, value) => {
            const entry = held.get(key);
            expect(entry?.value, `evicted ${key}, which was not held`).toBe(value);
            held.delete(key);
            if (clearing) return;
            for (const [other, kept] of held) {
              expect(
                kept.usedAt,
                `${key} (set at ${entry!.setAt}) evicted while ${other} (last used at ${kept.usedAt}) is kept`,
              ).toBeGreaterThan(entry!.setAt);
            }
          });
          operations.forEach((operation, i) => {
            now++;
            if (operation.op === "set") {
              held.set(operation.key, { value: i, size: operation.size, setAt: now, usedAt: now });
              cache.set(operation.key, i, operation.size);
              expect(held.get(operation.key)?.value).toBe(i);
              expect(
                cache.size <= bound || [...held.keys()].join() === String(operation.key),
                `${cache.size} bytes held, bound ${bound}`,
              ).toBe(true);
            } else if (operation.op === "get") {
              const entry = held.get(operation.key);
              if (entry) entry.usedAt = now;
              expect(cache.get(operation.key)).toBe(entry?.value);
            } else {
              clearing = true;
              cache.clear();
              clearing = false;
              expect(held.size).toBe(0);
            }
            expect(cache.size).toBe([...held.values()].reduce((sum, e) => sum + e.size, 0));
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
