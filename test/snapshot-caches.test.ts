/**
 * What the snapshot reader keeps in memory: every read owns exactly its bytes (a slice of Node's
 * shared 8 kB pool would pin the whole slab behind a cache's back), and walking every record of a
 * list keeps the page and block caches within their bounds.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DiskFile } from "../api/_core/format/primitives/disk-file.js";
import { FreshnessFold } from "../api/_core/format/read/freshness.js";
import { PageBuffer } from "../api/_core/format/primitives/page-buffer.js";
import { readManifest, Snapshot, type CacheBudgets } from "../api/_core/format/read/snapshot.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { buildDataset, expectedList, generateDataset } from "./helpers/dataset.js";

let root: string;
beforeAll(() => {
  root = makeTempDir("snapshot-caches");
});
afterAll(() => removeDir(root));

describe("reads from a snapshot file", () => {
  test.each([1, 100, 4095, 4096, 10_000])("a read of %i bytes owns exactly that memory", (length) => {
    const file = path.join(root, `bytes-${length}`);
    writeFileSync(file, Buffer.alloc(length + 10, 7));
    const read = new DiskFile(file, "bytes").read(5, length);
    expect(read.length).toBe(length);
    expect(read.buffer.byteLength).toBe(length);
    expect(read.every((byte) => byte === 7)).toBe(true);
  });
});

describe("walking every showtime in list order", () => {
  const dataset = generateDataset({ seed: 5, showtimes: 400 });
  const snapshotDir = () => path.join(root, "walk");
  beforeAll(() => buildDataset(dataset, root, snapshotDir(), "data-walk"));

  /** Renders the whole list `step` records at a time; the bytes each cache holds after every step, and the records. */
  function walk(budgets: CacheBudgets, step: number) {
    const snapshot = new Snapshot(readManifest(snapshotDir()), snapshotDir(), budgets);
    const { lists } = snapshot;
    const list = lists.list("showtimes");
    const records: unknown[] = [];
    const held: Array<{ pages: number; blocks: number }> = [];
    const out = new PageBuffer();
    for (let start = 0; start < list.length; start += step) {
      out.reset();
      list.render(
        start,
        Math.min(list.length, start + step),
        out,
        new FreshnessFold(lists.dictionaries.observed, lists.dictionaries.updated),
      );
      records.push(...JSON.parse(`[${out.finish().toString()}]`));
      held.push(snapshot.cachedBytes());
    }
    snapshot.close();
    return { records, held };
  }

  /**
   * Bounded to 1 byte, each cache holds one entry at a time: the one read last. Walking one record
   * at a time, the last block read is that record's, so every block is seen alone.
   */
  function largestEntries() {
    const { records, held } = walk({ pageBytes: 1, blockBytes: 1 }, 1);
    expect(records).toEqual(expectedList(dataset, "showtimes"));
    return { pages: Math.max(...held.map((h) => h.pages)), blocks: Math.max(...held.map((h) => h.blocks)) };
  }

  type Sizes = { pages: number; blocks: number };
  test.each<[string, (largest: Sizes) => Sizes]>([
    ["bounds below any entry: one entry at a time, everything read again and again", () => ({ pages: 1, blocks: 1 })],
    ["bounds of exactly the largest entry", (largest) => largest],
    [
      "a block cache of three of the largest blocks: fewer than the walk reads",
      (largest) => ({ pages: largest.pages, blocks: 3 * largest.blocks }),
    ],
    ["bounds above the whole snapshot: nothing is ever evicted", () => ({ pages: 2 ** 30, blocks: 2 ** 30 })],
  ])("%s: every record right, each cache within its bound or holding one entry", (_label, bounds) => {
    const largest = largestEntries();
    const { pages: pageBytes, blocks: blockBytes } = bounds(largest);
    const { records, held } = walk({ pageBytes, blockBytes }, 37);
    expect(records).toEqual(expectedList(dataset, "showtimes"));
    // A cache exceeds its bound only by keeping the newest entry alone, so never by more than the largest entry.
    for (const { pages, blocks } of held) {
      expect(pages).toBeLessThanOrEqual(Math.max(pageBytes, largest.pages));
      expect(blocks).toBeLessThanOrEqual(Math.max(blockBytes, largest.blocks));
    }
  });

  test("a bound that fits several entries is used: the caches hold more than one entry at once, and keep them", () => {
    const largest = largestEntries();
    const { held } = walk({ pageBytes: 2 ** 30, blockBytes: 2 ** 30 }, 37);
    const most = { pages: Math.max(...held.map((h) => h.pages)), blocks: Math.max(...held.map((h) => h.blocks)) };
    expect(most.pages).toBeGreaterThan(largest.pages);
    // More than three blocks' worth: the bound of three blocks above really evicts.
    expect(most.blocks).toBeGreaterThan(3 * largest.blocks);
    // Nothing is evicted under a bound that fits everything: what is held only grows.
    for (let i = 1; i < held.length; i++) {
      expect(held[i]!.pages).toBeGreaterThanOrEqual(held[i - 1]!.pages);
      expect(held[i]!.blocks).toBeGreaterThanOrEqual(held[i - 1]!.blocks);
    }
  });
});
