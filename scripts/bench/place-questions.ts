/**
 * "Where is X" as an app or an assistant asks before `near` (decision: places): a cinema's locality,
 * whole or its first 3 to 6 letters, with its country or not, at each page size up to a limit; all
 * distinct, so that no page comes back soon enough for the composed-page cache to keep it (its
 * doorkeeper keeps a URL seen again within 1,024 requests): every request searches.
 */
import type { Snapshot } from "../../api/_core/format/read/snapshot.js";
import { distinctIndexes, UNCACHED_URLS } from "./scenario.js";

/** How much of a locality a question gives: all of it, or its first letters. */
const PREFIXES = [Infinity, 3, 4, 5, 6];

export interface PlaceQuestion {
  q: string;
  countryCode?: string;
  limit: number;
}

/** Up to UNCACHED_URLS distinct questions, limits `first`..`last`. */
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
  return distinctIndexes(all.length * per, UNCACHED_URLS, pick).flatMap((index): PlaceQuestion[] => {
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
