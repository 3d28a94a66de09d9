/**
 * Places by name (decision: places): the places whose every query word starts a word of their name
 * or region (name search's matching and ranks, name-search.ts), ordered by that rank (the whole
 * name, then names starting with the query, then the rest), then by how many cinemas lie within
 * 25 km (most first), then by key. A page resumes after the last place served: its rank, cinema
 * count and key, so a cursor keeps its place across rebuilds as a list's does.
 */
import type { PlaceIndex } from "../read/place-index.js";
import { type NameQuery, NO_MATCH, searchNames } from "./name-search.js";

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

/** The page of at most `limit` places after `after` (from the first without it). */
export function searchPlaces(places: PlaceIndex, query: PlaceQuery, limit: number, after?: PlaceSortKey): PlaceHits {
  const ranks = searchNames(places.names, query.q);
  const country = query.countryCode;
  // Places in key order from here on tie with `after` and follow it; the rest of its tie precedes it.
  const resume = after ? places.after(after.key) : 0;
  const hits: number[] = [];
  for (let i = 0; i < places.count; i++) {
    const rank = ranks[i]!;
    if (rank === NO_MATCH || (country !== undefined && !places.isIn(i, country))) continue;
    if (after && !follows(rank, places.cinemasNear(i), i, after, resume)) continue;
    hits.push(i);
  }
  hits.sort((a, b) => ranks[a]! - ranks[b]! || places.cinemasNear(b) - places.cinemasNear(a) || a - b);
  const page = hits.slice(0, limit);
  return { places: page, ranks: page.map((i) => ranks[i]!), hasMore: hits.length > limit };
}

/** Whether a place sorts after the one a page ended on. */
function follows(rank: number, cinemas: number, index: number, after: PlaceSortKey, resume: number): boolean {
  if (rank !== after.rank) return rank > after.rank;
  if (cinemas !== after.cinemas) return cinemas < after.cinemas;
  return index >= resume;
}
