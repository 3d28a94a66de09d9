/**
 * "Where is X" as an app or an assistant asks before `near` (decision: places): a cinema's locality,
 * whole or its first 3 to 8 letters, with its country or not, at each page size in a range; all
 * distinct. Pages of places are small (1.3 kB on average at 2M): 2,000 of them fit in the composed-page
 * cache (4 MB), and each run of the load generator starts its list again, so the pages just asked come
 * back within the doorkeeper's 1,024 requests and are kept; after a few runs every page was cached and
 * the scenario measured the cache (20 us a request at 2M against 73 us searched). PLACE_URLS of them
 * are about three times the cache, and a page kept at a run's start is at most a tenth of them.
 */
import type { Snapshot } from "../../api/_core/format/read/snapshot.js";
import { distinctIndexes } from "./scenario.js";

/** How much of a locality a question gives: all of it, or its first letters. */
const PREFIXES = [Infinity, 3, 4, 5, 6, 7, 8];

/** Distinct questions a place scenario asks: far more page bytes than the composed-page cache holds. */
export const PLACE_URLS = 10_000;

export interface PlaceQuestion {
  q: string;
  countryCode?: string;
  limit: number;
}

/** Up to PLACE_URLS distinct questions, limits `first`..`last`. */
export function placeQuestions(
  lists: Snapshot["lists"],
  pick: (n: number) => number,
  last: number,
  first = 1,
): PlaceQuestion[] {
  const towns = new Map<string, [string, string]>();
  for (let i = 0; i < lists.cinemas.length; i++) {
    const { location } = JSON.parse(Buffer.from(lists.cinemas.records.entry(i)).toString("utf8"));
    towns.set(`${location.countryCode}|${location.locality}`, [String(location.locality), location.countryCode]);
  }
  const all = [...towns.values()];
  const limits = last - first + 1;
  const per = PREFIXES.length * 2 * limits;
  const asked = new Set<string>();
  return distinctIndexes(all.length * per, PLACE_URLS, pick).flatMap((index): PlaceQuestion[] => {
    const [town, countryCode] = all[Math.floor(index / per)]!;
    const rest = index % per;
    const q = [...town].slice(0, PREFIXES[rest % PREFIXES.length]).join("");
    const withCountry = Math.floor(rest / PREFIXES.length) % 2 === 1;
    const limit = first + Math.floor(rest / PREFIXES.length / 2);
    // A locality shorter than a prefix asks what its whole name asks: once.
    const id = `${q}|${withCountry ? countryCode : ""}|${limit}`;
    if (asked.has(id)) return [];
    asked.add(id);
    return [{ q, ...(withCountry ? { countryCode } : {}), limit }];
  });
}
