/**
 * What the snapshot reader keeps in memory: every read owns exactly its bytes (a slice of Node's
 * shared 8 kB pool would pin the whole slab behind a cache's back), and walking every record of a
 * list keeps the page and block caches within their bounds.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DiskFile } from "../api/_core/format/disk-file.js";
import { FreshnessFold } from "../api/_core/format/freshness.js";
import { PageBuffer } from "../api/_core/format/page-buffer.js";
import { readManifest, Snapshot } from "../api/_core/format/snapshot.js";
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

  test.each([
    [4096, 1024, "caches far smaller than the data: everything is read again and again"],
    [64 * 1024, 64 * 1024, "caches that hold a few blocks"],
  ])(
    "page cache %i B, block cache %i B: every record right, both caches within bounds (%s)",
    (pageBytes, blockBytes) => {
      const snapshot = new Snapshot(readManifest(snapshotDir()), snapshotDir(), { pageBytes, blockBytes });
      const { lists } = snapshot;
      const list = lists.list("showtimes");
      const records: unknown[] = [];
      const out = new PageBuffer();
      for (let start = 0; start < list.length; start += 37) {
        out.reset();
        list.render(
          start,
          Math.min(list.length, start + 37),
          out,
          new FreshnessFold(lists.dictionaries.observed, lists.dictionaries.updated),
        );
        records.push(...JSON.parse(`[${out.finish().toString()}]`));
        const held = snapshot.cachedBytes();
        // One entry may exceed a bound on its own (the cache keeps the newest): at most one block or page over.
        expect(held.pages).toBeLessThanOrEqual(pageBytes + 4096);
        expect(held.blocks).toBeLessThanOrEqual(blockBytes + 8192);
      }
      expect(records).toEqual(expectedList(dataset, "showtimes"));
      snapshot.close();
    },
  );
});
