/**
 * A page of places (decision: places): the list envelope (spec §4.1) around the places' JSON,
 * `nameMatch` when `q` found near spellings only, the GeoNames attribution its licence asks for, and
 * the snapshot's freshness (places carry no provenance, as attributes do not).
 */
import { PLACES_ATTRIBUTION } from "../format/layout/places.js";
import { escapeJson } from "../format/primitives/dictionary.js";
import type { PageBuffer } from "../format/primitives/page-buffer.js";
import { isNearRank, NAME_MATCH_NEAR } from "../format/query/name-search.js";
import { type PlaceSortKey, searchPlaces } from "../format/query/place-search.js";
import type { Snapshot } from "../format/read/snapshot.js";
import type { PlaceSearchQuery } from "../endpoints/parameters/places.js";
import { encodeCursorEscaped } from "../tokens/cursor.js";

const ATTRIBUTION = JSON.stringify(PLACES_ATTRIBUTION);

export function composePlacesInto(
  snapshot: Snapshot,
  query: PlaceSearchQuery,
  after: PlaceSortKey | undefined,
  binding: string,
  out: PageBuffer,
): void {
  const places = snapshot.lists.places;
  const hits = searchPlaces(places, query, query.limit, after);
  out.reset();
  out.text('{"data":[');
  hits.places.forEach((place, n) => {
    if (n > 0) out.text(",");
    places.render(place, out);
  });
  const last = hits.places.length - 1;
  const next =
    hits.hasMore && last >= 0
      ? encodeCursorEscaped(
          binding,
          [String(hits.ranks[last]), String(places.cinemasNear(hits.places[last]!))],
          escapeJson(places.key(hits.places[last]!)),
        )
      : null;
  out.text(
    `],"pagination":${JSON.stringify({ nextCursor: next, hasMore: next !== null })}` +
      // Near spellings say so, as a film or cinema page does (decision: name search).
      `${isNearRank((hits.ranks[0] ?? 0) - 1) ? NAME_MATCH_NEAR : ""},"attribution":${ATTRIBUTION},` +
      `"freshness":${JSON.stringify(snapshot.manifest.freshness)}}`,
  );
}
