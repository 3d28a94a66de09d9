/**
 * The duplicate showtime ids, found without a hash table of every id: nothing refers to a showtime,
 * so its ids are only checked against each other and against the ids invalid records name. A Map of
 * 7.4M showtime ids took ~440 MB of the build's heap at its peak; here each id's hash goes into a
 * typed array (8 bytes an id, let go once sorted and read), and only the ids whose hash repeats, or
 * is named by an invalid record, are compared exactly (in a Map of those alone). The problems are those a Map of
 * every id reports, in the same order.
 */
import type { Location } from "../load/read-source-file.js";

/** A 53-bit hash of a string (two 32-bit FNV-1a-like mixes): equal strings, equal hashes. */
export function idHash(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0) * 2 ** 21 + ((b >>> 0) >>> 11);
}

/** Entries read in order, twice: an array, or showtimes validation holds (held-showtimes.ts). */
export type Entries<T> = Iterable<T> & { readonly length: number };

/** Hashes of the entries' ids found more than once (one typed array, sorted in place, then let go). */
function repeatedHashes(entries: Entries<{ id: string }>, hash: (id: string) => number): Set<number> {
  const sorted = new Float64Array(entries.length);
  let i = 0;
  for (const entry of entries) sorted[i++] = hash(entry.id);
  sorted.sort();
  const repeated = new Set<number>();
  for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) repeated.add(sorted[i]!);
  return repeated;
}

/**
 * Calls `onDuplicate` for every entry whose id an earlier entry has, with where it was first seen, in
 * entry order; returns the ids that could matter to anyone else, each with where it was first seen:
 * every repeated id, and every id in `named` that some entry has (so `has` answers exactly for those).
 * Exact whatever `hash` gives: ids that only share a hash are compared, and found different.
 */
export function findDuplicateIds<T extends Location & { id: string }>(
  entries: Entries<T>,
  named: Iterable<string>,
  onDuplicate: (entry: T, first: Location) => void,
  hash = idHash,
): Map<string, Location> {
  const watched = repeatedHashes(entries, hash);
  for (const id of named) watched.add(hash(id));
  const first = new Map<string, Location>();
  // Each id hashed again rather than its hash kept: 8 bytes an id less at the build's peak, ~1 s more.
  for (const entry of entries) {
    if (!watched.has(hash(entry.id))) continue;
    const seen = first.get(entry.id);
    if (seen) onDuplicate(entry, seen);
    else first.set(entry.id, entry);
  }
  return first;
}
