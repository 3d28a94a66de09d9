/**
 * The snapshot format's building blocks (architecture: "Snapshot format 4"), each at its bounds:
 * varints and zigzag, packed integer widths, the paged file (sections across page boundaries,
 * read whole or in ranges, every page checked), the block cache's byte bound whatever the block
 * sizes, and the showtime id index (one showtime by id: a hash bucket, 16-bit fingerprints, one
 * record decoded to confirm).
 */
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LruCache } from "../api/_core/format/primitives/lru.js";
import {
  Dictionary,
  encodeDictionary,
  escapedDictionary,
  escapeJson,
  Fragments,
} from "../api/_core/format/primitives/dictionary.js";
import { BlockCache } from "../api/_core/format/primitives/block-cache.js";
import { ByteReader, ByteWriter, DecodeError, unzigzag, zigzag } from "../api/_core/format/primitives/bytes.js";
import { DiskFile } from "../api/_core/format/primitives/disk-file.js";
import { SnapshotError } from "../api/_core/format/primitives/errors.js";
import { encodePacked, PACKED_HEADER, readPacked, widthFor } from "../api/_core/format/primitives/packed.js";
import { PAGE_BYTES, PagedFile, PagedFileWriter } from "../api/_core/format/primitives/paged-file.js";
import { readManifest, Snapshot } from "../api/_core/format/read/snapshot.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { buildDataset, generateDataset } from "./helpers/dataset.js";

let root: string;
beforeAll(() => {
  root = makeTempDir("format-primitives");
});
afterAll(() => removeDir(root));

describe("varints", () => {
  test.each([
    [0, 1],
    [127, 1],
    [128, 2],
    [16_383, 2],
    [16_384, 3],
    [2 ** 32 - 1, 5],
    [2 ** 53 - 1, 8],
  ])("%i takes %i bytes and reads back", (value, bytes) => {
    const out = new ByteWriter(1);
    out.varint(value);
    const written = out.finish();
    expect(written.length).toBe(bytes);
    const reader = new ByteReader(written);
    expect(reader.varint()).toBe(value);
    expect(reader.done).toBe(true);
  });

  test.each([[-1], [2 ** 53], [1.5], [Number.NaN]])("%d is refused by the writer", (value) => {
    expect(() => new ByteWriter().varint(value)).toThrow(RangeError);
  });

  test.each<[string, number[], RegExp]>([
    ["a continuation bit on the last byte", [0x80], /ends early/],
    ["nine bytes of continuation", [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], /too long/],
    ["no bytes", [], /ends early/],
  ])("%s is a DecodeError", (_label, bytes, message) => {
    const read = () => new ByteReader(new Uint8Array(bytes)).varint();
    expect(read).toThrow(DecodeError);
    expect(read).toThrow(message);
  });

  test.each([
    [0, 0],
    [-1, 1],
    [1, 2],
    [-2, 3],
    [2 ** 40, 2 ** 41],
    [-(2 ** 40), 2 ** 41 - 1],
  ])("zigzag(%d) = %d and back", (value, coded) => {
    expect(zigzag(value)).toBe(coded);
    expect(unzigzag(coded)).toBe(value);
  });
});

describe("dictionaries of ids as JSON text", () => {
  const texts = (d: Dictionary) => Array.from({ length: d.count }, (_, i) => d.text(i));
  // At the edges of what needs no escaping: space and DEL are their own JSON text, the quote,
  // backslash, controls and anything past ASCII are re-encoded as JSON.stringify writes them.
  test.each([
    [["cin-1", "a b", "~\x7f", "!#[]"], true],
    [['say "hi"'], false],
    [["back\\slash"], false],
    [["tab\tthere"], false],
    [["\x1f"], false],
    [["Kino Bábylon"], false],
    [["日本"], false],
    [[], true],
  ])("%j kept as it is: %s", (ids, kept) => {
    const plain = new Dictionary(encodeDictionary(ids));
    const escaped = escapedDictionary(plain);
    expect(escaped === plain).toBe(kept);
    expect(texts(escaped)).toEqual(ids.map(escapeJson));
  });

  test("fragments wrap every entry in the text around it, and give its own text back", () => {
    const fragments = new Fragments(new Dictionary(encodeDictionary(["a", "", "ßc"])), ',"id":"', '"');
    const entries = [0, 1, 2].map((i) =>
      Buffer.from(fragments.bytes.subarray(fragments.start[i], fragments.end[i])).toString(),
    );
    expect(entries).toEqual([',"id":"a"', ',"id":""', ',"id":"ßc"']);
    expect([0, 1, 2].map((i) => fragments.text(i))).toEqual(["a", "", "ßc"]);
  });
});

describe("packed integers", () => {
  test.each([
    [0xff, 1],
    [0x100, 2],
    [0xffff, 2],
    [0x1_0000, 3],
    [0xff_ffff, 3],
    [0x100_0000, 4],
    [0xffff_ffff, 4],
  ])("a largest value of %i takes %i bytes each, and every value reads back", (max, width) => {
    expect(widthFor(max)).toBe(width);
    const values = [0, 1, max, Math.floor(max / 3), max - 1];
    const packed = encodePacked(values, max);
    expect(packed.length).toBe(PACKED_HEADER + values.length * width);
    expect(packed[0]).toBe(width);
    const body = packed.subarray(PACKED_HEADER);
    expect(values.map((_, i) => readPacked(body, width, i))).toEqual(values);
  });
});

/** Writes sections to a paged file on disk; returns its path and what the manifest records. */
function writePaged(name: string, sections: Array<[string, Uint8Array]>) {
  const file = path.join(root, name);
  const fd = openSync(file, "w");
  const writer = new PagedFileWriter({ append: (bytes) => void writeSync(fd, bytes), close: () => closeSync(fd) });
  for (const [section, bytes] of sections) writer.add(section, bytes);
  return { file, ...writer.finish() };
}

const openPaged = (file: string, digest: number, cacheBytes = 2 * PAGE_BYTES) =>
  new PagedFile(new DiskFile(file, path.basename(file)), digest, new LruCache<number, Uint8Array>(cacheBytes));

describe("a paged file", () => {
  test("returns every section's bytes, whole and in any range, across page boundaries", () => {
    let run = 0;
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 3 * PAGE_BYTES }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 8 }),
        (contents, ranges) => {
          const sections = contents.map((bytes, i): [string, Uint8Array] => [`s${i}`, bytes]);
          const { file, digest, bytes } = writePaged(`paged-${run++}`, sections);
          expect(readFileSync(file).length).toBe(bytes);
          const paged = openPaged(file, digest);
          for (const [name, want] of sections) {
            expect(Buffer.from(paged.readSection(name))).toEqual(Buffer.from(want));
            const { offset, length } = paged.section(name);
            expect(length).toBe(want.length);
            for (const [a, b] of ranges) {
              if (want.length === 0) continue;
              const start = a % want.length;
              const take = b % (want.length - start + 1);
              expect(Buffer.from(paged.read(offset + start, take))).toEqual(
                Buffer.from(want.subarray(start, start + take)),
              );
              expect(paged.cache.size).toBeLessThanOrEqual(2 * PAGE_BYTES);
            }
          }
          paged.file.close();
        },
      ),
      { numRuns: 60, seed: 20_261_123 },
    );
  });

  test.each([
    ["the last byte of a page", PAGE_BYTES - 1, 1],
    ["the first byte of the next", PAGE_BYTES, 1],
    ["a range across the boundary", PAGE_BYTES - 2, 4],
    ["exactly one page", 0, PAGE_BYTES],
  ])("%s reads right (offset %i, %i bytes)", (_label, offset, length) => {
    const data = Uint8Array.from({ length: 2 * PAGE_BYTES + 10 }, (_, i) => (i * 7) & 0xff);
    const { file, digest } = writePaged(`bounds-${offset}-${length}`, [["only", data]]);
    const paged = openPaged(file, digest);
    const { offset: at } = paged.section("only");
    expect(Buffer.from(paged.read(at + offset, length))).toEqual(Buffer.from(data.subarray(offset, offset + length)));
    paged.file.close();
  });

  test.each([
    ["one byte past the data", (end: number) => [end, 1]],
    ["a negative offset", () => [-1, 1]],
    ["a negative length", () => [0, -1]],
  ])("a read of %s is a SnapshotError, not a short read", (_label, range) => {
    const { file, digest } = writePaged(`past-${_label.length}`, [["only", new Uint8Array(100)]]);
    const paged = openPaged(file, digest);
    const end = paged.section("only").offset + 100;
    const [offset, length] = range(end) as [number, number];
    expect(() => paged.read(offset!, length!)).toThrow(SnapshotError);
    expect(paged.read(end - 1, 1).length).toBe(1);
    paged.file.close();
  });

  test("a page with a byte changed fails its checksum when read, naming the file; the other pages still read", () => {
    const data = new Uint8Array(3 * PAGE_BYTES).fill(5);
    const { file, digest } = writePaged("flipped", [["only", data]]);
    const bytes = readFileSync(file);
    // Inside the second page (the first page's 5-byte trailer comes before it).
    bytes[PAGE_BYTES + 100] = bytes[PAGE_BYTES + 100]! ^ 1;
    writeFileSync(file, bytes);
    const paged = openPaged(file, digest);
    const { offset } = paged.section("only");
    expect(Buffer.from(paged.read(offset, 10))).toEqual(Buffer.alloc(10, 5));
    expect(() => paged.read(offset + PAGE_BYTES + 200, 10)).toThrow(/flipped: page 1 fails its checksum/);
    expect(() => paged.readSection("only")).toThrow(/page 1 fails its checksum/);
    paged.file.close();
  });

  test("a footer whose digest differs from the manifest's is refused at open", () => {
    const { file, digest } = writePaged("digest", [["only", new Uint8Array(10)]]);
    expect(() => openPaged(file, (digest + 1) >>> 0)).toThrow(SnapshotError);
  });

  test("a section that does not exist is a SnapshotError naming it", () => {
    const { file, digest } = writePaged("sections", [["present", new Uint8Array(1)]]);
    const paged = openPaged(file, digest);
    expect(() => paged.section("absent")).toThrow(/has no section absent/);
    paged.file.close();
  });
});

describe("the block cache", () => {
  const block = (size: number) => ({ size });

  test.each([
    ["blocks that fit", [40, 40], 100, [0, 1], 80],
    ["one past the bound: the oldest goes", [40, 40, 40], 100, [1, 2], 80],
    ["exactly at the bound: all stay", [50, 50], 100, [0, 1], 100],
    ["a block larger than the bound stays alone", [40, 150], 100, [1], 150],
  ])("%s", (_label, sizes, bound, kept, total) => {
    const cache = new BlockCache<{ size: number }>(sizes.length, bound);
    sizes.forEach((size, n) => cache.set(n, block(size)));
    // Nothing read since: every block has had its one pass, so eviction is oldest first.
    expect(sizes.map((_, n) => n).filter((n) => cache.get(n))).toEqual(kept);
    expect(cache.size).toBe(total);
  });

  test.each([
    ["read since the hand passed it: passed over once more, the next block goes", true, [0, 1, 3]],
    ["not read since: it goes", false, [0, 2, 3]],
  ])("a block %s", (_label, read, kept) => {
    const cache = new BlockCache<{ size: number }>(4, 100);
    for (const n of [0, 1, 2, 3]) cache.set(n, block(30)); // the fourth is over: one pass clears 0..2's bits, 0 goes
    expect(cache.get(0)).toBeUndefined();
    if (read) cache.get(1);
    cache.set(0, block(30)); // over again: the hand is at 1
    expect([0, 1, 2, 3].filter((n) => cache.get(n))).toEqual(kept);
  });

  test(
    "under any sequence of sets and gets, with any sizes and bound: the bound holds, and a get answers " +
      "the block set last or nothing",
    () => {
      const operation = fc.oneof(
        fc.record({
          op: fc.constant("set" as const),
          n: fc.integer({ min: 0, max: 11 }),
          size: fc.integer({ min: 1, max: 60 }),
        }),
        fc.record({ op: fc.constant("get" as const), n: fc.integer({ min: 0, max: 11 }) }),
      );
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 150 }),
          fc.array(operation, { minLength: 50, maxLength: 300 }),
          (bound, operations) => {
            const cache = new BlockCache<{ size: number }>(12, bound);
            /** The block set last for each number, while it may still be held (a miss means it was evicted). */
            const latest = new Map<number, { size: number }>();
            for (const operation of operations) {
              if (operation.op === "set") {
                const added = block(operation.size);
                cache.set(operation.n, added);
                latest.set(operation.n, added);
                // Over the bound only by keeping the block just set, alone.
                expect(
                  cache.size <= bound || cache.size === added.size,
                  `${cache.size} bytes held, bound ${bound}`,
                ).toBe(true);
                expect(cache.get(operation.n)).toBe(added);
              } else {
                const found = cache.get(operation.n);
                if (found === undefined) latest.delete(operation.n);
                else expect(found).toBe(latest.get(operation.n));
              }
            }
            // What is held is what the size counts.
            let total = 0;
            for (let n = 0; n < 12; n++) {
              const found = cache.get(n);
              if (found === undefined) continue;
              expect(found).toBe(latest.get(n));
              total += found.size;
            }
            expect(cache.size).toBe(total);
          },
        ),
        { numRuns: 300 },
      );
    },
  );

  test("replacing a block counts only the new one", () => {
    const cache = new BlockCache<{ size: number }>(2, 100);
    cache.set(0, block(60));
    cache.set(0, block(30));
    expect(cache.size).toBe(30);
  });
});

describe("the showtime id index", () => {
  test.each([
    ["blocks of one record", { targetBytes: 1, restartInterval: 1, deflate: false }],
    ["the default layout", undefined],
  ])(
    "finds every showtime by its id, and nothing for an id one character or one case away (%s)",
    async (_label, layout) => {
      // Ids include case-only twins (st-0001 / St-0001), '/', '%', spaces and emoji.
      const dataset = generateDataset({ seed: 8, showtimes: 300 });
      const dir = path.join(root, `ids-${layout ? "tiny" : "default"}`);
      await buildDataset(dataset, root, dir, `data-ids-${layout ? "tiny" : "default"}`, layout);
      const snapshot = new Snapshot(readManifest(dir), dir, { pageBytes: 8192, blockBytes: 8192 });
      const store = snapshot.lists.showtimes;
      const ids = new Set(dataset.showtimes.map((s) => s.id));
      for (const id of ids) {
        const record = store.findById(id);
        expect(record, id).toBeDefined();
        expect(store.idOf("byCinema", record!)).toBe(id);
      }
      const near = [...ids]
        .flatMap((id) => [id.toUpperCase(), id.toLowerCase(), `${id}x`, id.slice(0, -1)])
        .filter((id) => !ids.has(id));
      expect(near.length).toBeGreaterThan(600);
      for (const id of near) expect(store.findById(id), id).toBeUndefined();
      expect(store.findById("")).toBeUndefined();
      snapshot.close();
    },
  );
});
