/**
 * The link stage's duplicate showtime ids (build/link/showtime-ids.ts), found by sorted hashes
 * instead of a map of every id: for random ids, duplicates and invalid records' ids, the same
 * problems in the same order, and the same answers to "is this id used", as a map of every id
 * gives, whatever the hash (a hash that gives every id the same value included).
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { findDuplicateIds, idHash } from "../build/link/showtime-ids.js";
import type { Location } from "../build/load/read-source-file.js";

type Entry = Location & { id: string };

/** What a map of every id reports: each repeat with its first place, and the ids used. */
function byMap(entries: readonly Entry[]) {
  const first = new Map<string, Location>();
  const duplicates: Array<[number | undefined, number | undefined]> = [];
  for (const entry of entries) {
    const seen = first.get(entry.id);
    if (seen) duplicates.push([entry.line, seen.line]);
    else first.set(entry.id, entry);
  }
  return { duplicates, used: first };
}

function byHashes(entries: readonly Entry[], named: readonly string[], hash: (id: string) => number) {
  const duplicates: Array<[number | undefined, number | undefined]> = [];
  const index = findDuplicateIds(entries, named, (entry, seen) => duplicates.push([entry.line, seen.line]), hash);
  return { duplicates, index };
}

const HASHES: Array<[string, (id: string) => number]> = [
  ["idHash", idHash],
  ["every id one hash", () => 7],
  ["the id's length", (id) => id.length],
];

describe.each(HASHES)("with %s", (_, hash) => {
  test("reports what a map of every id reports, and knows every named id that is used", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("st-a", "st-b", "st-ab", "st-c", "x", ""), { maxLength: 40 }),
        fc.array(fc.constantFrom("st-a", "st-zz", "x", "q"), { maxLength: 5 }),
        (ids, named) => {
          const entries = ids.map((id, i) => ({ id, file: "showtimes/a.ndjson", line: i + 1 }));
          const expected = byMap(entries);
          const { duplicates, index } = byHashes(entries, named, hash);
          expect(duplicates).toEqual(expected.duplicates);
          for (const id of named) {
            expect(index.has(id)).toBe(expected.used.has(id));
            if (index.has(id)) expect(index.get(id)).toBe(expected.used.get(id));
          }
        },
      ),
    );
  });
});

test("idHash: equal ids hash equal, within 53 bits; nearby showtime ids apart", () => {
  const ids = Array.from(
    { length: 20_000 },
    (_, i) => `st-us-lax-regal-${String(i).padStart(5, "0")}-20261201-1210-s7`,
  );
  const hashes = new Set(ids.map(idHash));
  expect(hashes.size).toBe(ids.length);
  expect(idHash(ids[0]!)).toBe(idHash(`${ids[0]}`));
  for (const h of hashes) expect(Number.isSafeInteger(h) && h >= 0).toBe(true);
});
