/**
 * What the reader's caches hold: reads own exactly their bytes, and walking a list does not fill
 * the block cache that keyed-pack lookups depend on (memory after a sweep, issue 3), while short
 * runs of records, as a view's page reads them, do use it.
 */
import path from "node:path";
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BlockCache } from "../api/_core/block-cache.js";
import { SnapshotReader } from "../api/_core/snapshot-reader.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { buildDataset, generateDataset } from "./helpers/dataset.js";

let root: string;
beforeAll(() => {
  root = makeTempDir("reader-memory");
});
afterAll(() => removeDir(root));

describe("the block cache's direct reads", () => {
  test.each([1, 100, 4095, 4096, 10_000])("a read of %i bytes owns exactly that memory (no shared pool slab)", (length) => {
    const file = path.join(root, `bytes-${length}`);
    writeFileSync(file, Buffer.alloc(length + 10, 7));
    const read = new BlockCache(1024).readDirect(file, 5, length);
    expect(read.length).toBe(length);
    expect(read.buffer.byteLength).toBe(length);
    expect(read.every((byte) => byte === 7)).toBe(true);
  });
});

describe("walking a whole list", () => {
  const dataset = generateDataset({ seed: 5, showtimes: 300 });
  const snapshotDir = () => path.join(root, "walk");
  beforeAll(() => buildDataset(dataset, root, snapshotDir(), "data-walk"));

  test("reads every record without caching index blocks, and keeps the records cache within its bound", () => {
    const recordCacheBytes = 20_000;
    const reader = new SnapshotReader(snapshotDir(), { recordCacheBytes });
    const list = reader.list("showtimes", {});
    expect(list.length).toBe(dataset.showtimes.length);
    const ids: string[] = [];
    for (let start = 0; start < list.length; start += 100) {
      const items = reader.items("showtimes", list.positions(start, Math.min(list.length, start + 100)));
      ids.push(...items.map((item) => JSON.parse(item.bytes.toString()).id));
    }
    expect(new Set(ids).size).toBe(dataset.showtimes.length);
    expect(reader.cachedBytes().blocks).toBe(0);
    expect(reader.cachedBytes().records).toBeGreaterThan(0);
    expect(reader.cachedBytes().records).toBeLessThanOrEqual(recordCacheBytes);
  });

  // 64 consecutive records are taken for a walk; fewer (a view's scattered records) are cached.
  test.each([
    { count: 1, cached: true },
    { count: 63, cached: true },
    { count: 64, cached: false },
    { count: 100, cached: false },
  ])("a run of $count records read at once caches its offsets' blocks: $cached", ({ count, cached }) => {
    const reader = new SnapshotReader(snapshotDir());
    const items = reader.items("showtimes", Array.from({ length: count }, (_, i) => 10 + i));
    expect(items).toHaveLength(count);
    expect(reader.cachedBytes().blocks > 0).toBe(cached);
  });

  test("a keyed-pack lookup does cache its index blocks", () => {
    const reader = new SnapshotReader(snapshotDir());
    expect(reader.body({ kind: "page", resource: "films", filters: {}, after: null })).toBeDefined();
    expect(reader.cachedBytes().blocks).toBeGreaterThan(0);
  });
});
