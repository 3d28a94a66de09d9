/** The bounded LRU behind every server-side cache and memo: the bound holds, the oldest goes first. */
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
});
