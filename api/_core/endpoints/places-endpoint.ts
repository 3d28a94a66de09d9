/**
 * `GET /v1/places` (decision: places): places by name, each with its coordinates (what `near` takes)
 * and how many cinemas lie within 25 km; every page composed, its cursor bound to `q` (as searched)
 * and `countryCode` like any list's filters.
 */
import { composePlacesInto } from "../compose/compose-places.js";
import type { PlaceSortKey } from "../format/query/place-search.js";
import { bindingOf } from "../tokens/cursor.js";
import { boundFieldsOf } from "./parameters/parameter.js";
import type { PlaceSearchQuery } from "./parameters/places.js";
import { foreignCursor, parseTableQuery } from "./parse-request.js";
import type { RouteEndpoint } from "./path-ids.js";

/** Where a page resumes, from a cursor's sort key: [rank, cinema count, place key]; undefined if it is none. */
function sortKeyOf(after: readonly string[]): PlaceSortKey | undefined {
  const [rank, cinemas, key] = after;
  if (after.length !== 3 || !/^[0-9]{1,3}$/.test(rank!) || !/^[0-9]{1,10}$/.test(cinemas!)) return undefined;
  return { rank: Number(rank), cinemas: Number(cinemas), key: key! };
}

export const placesEndpoint: RouteEndpoint = (route) => ({
  answer(_, rawQuery, serving) {
    const market = serving.snapshot.manifest.market?.id;
    const { query } = parseTableQuery<PlaceSearchQuery>(route.table, rawQuery);
    const binding = bindingOf(route.name, boundFieldsOf(route.table, query), market);
    let after: PlaceSortKey | undefined;
    if (query.cursor) {
      after = query.cursor.binding === binding ? sortKeyOf(query.cursor.after) : undefined;
      if (!after) foreignCursor("another endpoint or other filters", "the filters", market);
    }
    const identity = `places|${binding}|${JSON.stringify(after ?? null)}|${query.limit}`;
    return serving.composed(identity, (out) => composePlacesInto(serving.snapshot, query, after, binding, out));
  },
});
