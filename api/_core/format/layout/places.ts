/**
 * The places a snapshot can be asked about by name (decision: places), as the build writes them
 * into index.pages and the server reads them: towns of the GeoNames gazetteer in the snapshot's
 * countries, and the snapshot's own localities and postcode districts, each with how many of its
 * cinemas lie within PLACE_RADIUS_KM. Places are stored in the order of their keys (placeKeyOf),
 * which is also the last tie-break of a search's order and what its cursors name.
 */

/** Where a place comes from: the gazetteer, a cinema's `location.locality`, or its postcode's district. */
export const PLACE_KINDS = ["town", "locality", "postcodeDistrict"] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

/** What a place's cinema count counts: the default radius of `near`, so the count is what `near` lists. */
export const PLACE_RADIUS_KM = 25;

/** A place as the API serves it, fields in response order. */
export interface Place {
  name: string;
  kind: PlaceKind;
  /** The gazetteer's first-level division (England, Ontario, Bayern); towns only, when it names one. */
  region?: string;
  countryCode: string;
  latitude: number;
  longitude: number;
  cinemasWithin25Km: number;
}

/** The sections of index.pages (besides the word index, layout/sections.ts searchSections("places")). */
export const PLACE_SECTIONS = {
  /** A dictionary of each place's JSON, as served. */
  records: "places.records",
  /** A dictionary of each place's key, ascending. */
  keys: "places.keys",
  /** A u32 per place: its cinemasWithin25Km, which a search ranks by without decoding records. */
  cinemas: "places.cinemas",
  /** Two ASCII letters per place: its countryCode, which `countryCode` selects on. */
  countries: "places.countries",
} as const;

/** A place's JSON as served: the fields of `Place` in order, `region` only when it has one. */
export function placeJson(place: Place): string {
  return JSON.stringify({
    name: place.name,
    kind: place.kind,
    ...(place.region === undefined ? {} : { region: place.region }),
    countryCode: place.countryCode,
    latitude: place.latitude,
    longitude: place.longitude,
    cinemasWithin25Km: place.cinemasWithin25Km,
  });
}

/**
 * A place's key, unique in a snapshot (two places with one key are one place): its name's folded
 * words (`nameKey`, layout/name-words.ts), then what tells namesakes apart. Compared as plain strings
 * (UTF-16 code units), never by a locale, so every build orders them alike.
 */
export function placeKeyOf(place: Place, nameKey: string): string {
  const kind = PLACE_KINDS.indexOf(place.kind);
  const where = `${place.region ?? ""}|${place.latitude},${place.longitude}`;
  return `${nameKey}|${place.countryCode}|${kind}|${where}|${place.name}`;
}

/** What every page of places says of where they come from: GeoNames' licence asks for credit (CC BY 4.0). */
export const PLACES_ATTRIBUTION =
  "Towns: GeoNames (https://www.geonames.org), CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/). " +
  "Localities and postcode districts: where this service's cinemas are.";
