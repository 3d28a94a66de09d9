/**
 * Films found with filters are in the list's order (decision: discovery): rank, then most matching
 * showtimes, then title (the film's place in name order); without showtime filters, rank then id.
 * Sorted as packed numbers where every part fits, as objects where one does not: the same order.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { type Entry, inListOrder } from "../api/_core/format/query/film-discovery.js";

/** The order as the list states it, compared entry by entry. */
function oracle(entries: Entry[], namePlace: Uint32Array, byCount: boolean): Entry[] {
  return [...entries].sort(
    (a, b) =>
      a.rank - b.rank || (byCount ? b.count - a.count || namePlace[a.film]! - namePlace[b.film]! : a.film - b.film),
  );
}

/** A name order of `n` films: a permutation and its inverse. */
function nameOrder(permutation: number[]) {
  const byName = Uint32Array.from(permutation);
  const namePlace = new Uint32Array(permutation.length);
  permutation.forEach((film, place) => (namePlace[film] = place));
  return { byName, namePlace };
}

const entriesArb = (ranks: number, counts: number) =>
  fc.integer({ min: 1, max: 40 }).chain((n) =>
    fc.record({
      permutation: fc.shuffledSubarray(
        Array.from({ length: n }, (_, i) => i),
        { minLength: n, maxLength: n },
      ),
      picked: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: n }),
      ranks: fc.array(fc.integer({ min: 0, max: ranks }), { minLength: n, maxLength: n }),
      counts: fc.array(fc.integer({ min: 1, max: counts }), { minLength: n, maxLength: n }),
      byCount: fc.boolean(),
    }),
  );

describe("films in the list's order", () => {
  test.each([
    ["ranks and counts that pack", 255, 2 ** 24 - 1],
    ["ranks past a byte, counts past 24 bits: compared as objects", 300, 2 ** 25],
  ])("%s: the order the list states", (_what, ranks, counts) => {
    fc.assert(
      fc.property(entriesArb(ranks, counts), ({ permutation, picked, ranks, counts, byCount }) => {
        const order = nameOrder(permutation);
        const entries = picked.map((film) => ({ film, rank: ranks[film]!, count: byCount ? counts[film]! : 0 }));
        expect(inListOrder([...entries], order, byCount)).toEqual(oracle(entries, order.namePlace, byCount));
      }),
      { numRuns: 300 },
    );
  });

  test.each([
    ["the largest count that packs", 2 ** 24 - 1],
    ["one past it", 2 ** 24],
  ])("%s: most showtimes first, ties by title", (_what, most) => {
    const order = nameOrder([2, 0, 1]);
    const entries = [
      { film: 0, rank: 0, count: 7 },
      { film: 1, rank: 0, count: most },
      { film: 2, rank: 0, count: 7 },
    ];
    expect(inListOrder(entries, order, true).map((e) => e.film)).toEqual([1, 2, 0]);
  });
});
