/**
 * The keyed pack's index (api/_core/keyed-pack.ts): every stored key is found with its slot,
 * every other key is not, whatever the keys' first bytes; checked against a Map as oracle.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { encodePackIndex, ENTRY_BYTES, FANOUT_BYTES, findInPackIndex, KEY_BYTES, listPackIndex } from "../api/_core/keyed-pack.js";

const keyOf = (...bytes: number[]) => {
  const key = Buffer.alloc(KEY_BYTES);
  bytes.forEach((b, i) => (key[i] = b));
  return key;
};

function finder(index: Buffer) {
  return (key: Buffer) => findInPackIndex((offset, length) => {
    // A read past the end is a corrupt index: the reader's guard turns it into a 503.
    if (offset + length > index.length) throw new RangeError("read past the index");
    return index.subarray(offset, offset + length);
  }, key);
}

describe("keyed pack index", () => {
  const entries = [
    { key: keyOf(0x00, 0x00, 0x05), offset: 0, length: 10 },
    { key: keyOf(0x00, 0x01), offset: 10, length: 1 },
    { key: keyOf(0x7f, 0xff), offset: 11, length: 4096 },
    { key: keyOf(0xff), offset: 4107, length: 0 },
    { key: keyOf(0xff, 0xff, 0xff), offset: 2 ** 33, length: 2 ** 32 - 1 },
  ];
  const find = finder(encodePackIndex([...entries].reverse()));

  test.each(entries.map((e) => [e.key.toString("hex").slice(0, 6), e] as const))("finds %s (first byte at the fan-out's edges, offsets past 4 GB)", (_, entry) => {
    expect(find(entry.key)).toEqual({ offset: entry.offset, length: entry.length });
  });

  test.each([
    ["a key before every stored key", keyOf()],
    ["a key between two of the same first byte", keyOf(0x00, 0x00, 0x06)],
    ["a first byte with no keys", keyOf(0x80)],
    ["a key after every stored key", keyOf(0xff, 0xff, 0xff, 0x01)],
  ])("does not find %s", (_, key) => {
    expect(find(key)).toBeUndefined();
  });

  test("an empty index is the fan-out alone and finds nothing", () => {
    const empty = encodePackIndex([]);
    expect(empty.length).toBe(FANOUT_BYTES);
    expect(finder(empty)(keyOf(0x42))).toBeUndefined();
  });

  test("is sorted by key whatever the input order, one entry each", () => {
    const index = encodePackIndex([...entries].reverse());
    expect(index.length).toBe(FANOUT_BYTES + entries.length * ENTRY_BYTES);
    expect(listPackIndex(index).map((e) => e.key)).toEqual(entries.map((e) => e.key.toString("hex")));
  });

  test.each([
    ["a duplicate key", [entries[0]!, { ...entries[0]!, offset: 99 }], /duplicate/],
    ["a key of the wrong width", [{ key: Buffer.alloc(KEY_BYTES - 1), offset: 0, length: 1 }], /20 bytes/],
  ])("refuses %s", (_, bad, message) => {
    expect(() => encodePackIndex(bad)).toThrow(message);
  });

  test("finds exactly the stored keys, as a Map would (random keys, many sharing first bytes)", () => {
    const key = fc.uint8Array({ minLength: KEY_BYTES, maxLength: KEY_BYTES }).map((bytes) => {
      bytes[0] = bytes[0]! % 4; // crowd a few fan-out buckets
      return Buffer.from(bytes);
    });
    fc.assert(
      fc.property(fc.uniqueArray(key, { selector: (k) => k.toString("hex"), maxLength: 200 }), fc.array(key, { maxLength: 50 }), (stored, probes) => {
        const oracle = new Map(stored.map((k, i) => [k.toString("hex"), { offset: i * 7, length: i }]));
        const find = finder(encodePackIndex(stored.map((k, i) => ({ key: k, offset: i * 7, length: i }))));
        for (const k of [...stored, ...probes]) expect(find(k)).toEqual(oracle.get(k.toString("hex")));
      }),
      { numRuns: 200 },
    );
  });
});
