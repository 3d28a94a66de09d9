/**
 * Places by name (decision: places): the places whose every query word starts a word of their name
 * or region (name search's matching and ranks, name-search.ts), ordered by that rank (the whole
 * name, then names starting with the query, then the rest), then by how many cinemas lie within
 * 25 km (most first), then by key. A page resumes after the last place served: its rank, cinema
 * count and key, so a cursor keeps its place across rebuilds as a list's does.
 */
import type { PlaceIndex } from "../read/place-index.js";
import { lowerBound } from "../primitives/search.js";
import { matchNames, type NameQuery } from "./name-search.js";

export interface PlaceQuery {
  q: NameQuery;
  countryCode?: string;
}

/** Where a page resumes: the sort key of the last place served. */
export interface PlaceSortKey {
  rank: number;
  cinemas: number;
  key: string;
}

export interface PlaceHits {
  /** Place indexes, in order, at most `limit`. */
  places: number[];
  ranks: number[];
  hasMore: boolean;
}

/**
 * The page of at most `limit` places after `after` (from the first without it). Its work is the
 * places the query finds (matchNames), not all places: the best `limit` + 1 are kept as they come,
 * never all of them sorted.
 */
export function searchPlaces(places: PlaceIndex, query: PlaceQuery, limit: number, after?: PlaceSortKey): PlaceHits {
  const { records, ranks } = matchNames(places.names, query.q);
  const country = query.countryCode;
  // Places in key order from here on tie with `after` and follow it; the rest of its tie precedes it.
  const resume = after ? places.after(after.key) : 0;
  const best: Array<{ place: number; rank: number; cinemas: number }> = [];
  let found = 0;
  records.forEach((place, k) => {
    const [rank, cinemas] = [ranks[k]!, places.cinemasNear(place)];
    if (country !== undefined && !places.isIn(place, country)) return;
    if (after && !follows(rank, cinemas, place, after, resume)) return;
    found++;
    const hit = { place, rank, cinemas };
    if (best.length > limit && !precedes(hit, best[limit]!)) return;
    best.splice(
      lowerBound(best.length, (at) => precedes(hit, best[at]!)),
      0,
      hit,
    );
    if (best.length > limit + 1) best.pop();
  });
  const page = best.slice(0, limit);
  return { places: page.map((hit) => hit.place), ranks: page.map((hit) => hit.rank), hasMore: found > limit };
}

/** The order of a search's places: rank, then most cinemas near, then key (the places' stored order). */
function precedes(a: { place: number; rank: number; cinemas: number }, b: typeof a): boolean {
  return a.rank !== b.rank ? a.rank < b.rank : a.cinemas !== b.cinemas ? a.cinemas > b.cinemas : a.place < b.place;
}

/** Whether a place sorts after the one a page ended on. */
function follows(rank: number, cinemas: number, index: number, after: PlaceSortKey, resume: number): boolean {
  if (rank !== after.rank) return rank > after.rank;
  if (cinemas !== after.cinemas) return cinemas < after.cinemas;
  return index >= resume;
}
