/** The build's fast meta encoder writes exactly what encodeMeta writes (and decodeMeta reads). */
import { describe, expect, test } from "vitest";
import { decodeMeta, encodeMeta } from "../api/_core/render-body.js";
import { sortKeyOf, type Entry } from "../build/context.js";
import { metaEncoder } from "../build/render-snapshot.js";

const observed: [string, string] = ["0001796580000", "2026-12-01T09:00:00+01:00"];
const updated: [string, string] = ["0001796583600.5", "2026-12-01T10:00:00.5Z"];
const entry = (patch: Partial<Entry>): Entry => ({ id: "st-1", record: 0, file: "f", ...patch } as Entry);

describe("metaEncoder", () => {
  test.each([
    ["a showtime with both provenance times", entry({ instant: "0001796590000", observed, updated })],
    ["a showtime without sourceUpdatedAt", entry({ instant: "0001796590000", observed })],
    ["a cinema whose id needs escaping", entry({ id: 'fr/paris/Le "Grand" Rex ★\\', observed, updated })],
    ["an attribute (no provenance)", entry({ id: "format-2d" })],
  ])("%s", (_, value) => {
    const encode = metaEncoder();
    const expected = encodeMeta({ sortKey: sortKeyOf(value), observed: value.observed, updated: value.updated });
    expect(encode(value)).toBe(expected);
    // Twice: the second call takes the tuples' JSON from the cache.
    expect(encode(value)).toBe(expected);
    expect(decodeMeta(encode(value)).sortKey).toEqual(sortKeyOf(value));
  });
});
