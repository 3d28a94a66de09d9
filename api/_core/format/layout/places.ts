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

/**
 * The sections of index.pages (besides the word index, layout/sections.ts searchSections("places")),
 * about 60 bytes a place with its word index: nothing a reader can derive is stored (a place's JSON
 * is written from its parts, its key from its name key and parts), and what places share (country,
 * kind, region) is stored once.
 */
export const PLACE_SECTIONS = {
  /** A dictionary of each place's name, as the text between the quotes of its JSON string. */
  names: "places.names",
  /** A dictionary, ascending, of what places share: placeWhereOf, the country, kind and region. */
  where: "places.where",
  /** Packed (primitives/packed.ts): each place's entry of PLACE_SECTIONS.where. */
  wheres: "places.wheres",
  /** Two i32 per place: its latitude and longitude in PLACE_COORDINATE_UNITS. */
  coordinates: "places.coordinates",
  /** Packed: each place's cinemasWithin25Km, which a search ranks by. */
  cinemas: "places.cinemas",
} as const;

/**
 * Places' coordinates are stored as whole hundred-thousandths of a degree (about a metre): the
 * gazetteer writes 5 decimals, and a build's centroids are rounded to 5. n / 1e5 is the double
 * nearest the decimal, as parsing its text is, so a place is served as its source wrote it.
 */
export const PLACE_COORDINATE_UNITS = 1e5;

/** What a place shares with others, as PLACE_SECTIONS.where holds it: country code, kind's index, region. */
export function placeWhereOf(place: Pick<Place, "countryCode" | "kind" | "region">): string {
  return `${place.countryCode}${PLACE_KINDS.indexOf(place.kind)}${place.region ?? ""}`;
}

/** A placeWhereOf text read back; undefined when it is not one. */
export function parsePlaceWhere(text: string): Pick<Place, "countryCode" | "kind" | "region"> | undefined {
  const kind = PLACE_KINDS[Number(text[2])];
  if (!/^[A-Z]{2}[0-9]/.test(text) || kind === undefined) return undefined;
  return { countryCode: text.slice(0, 2), kind, ...(text.length > 3 ? { region: text.slice(3) } : {}) };
}

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
  return placeKeyFrom(nameKey, placeKeyMiddle(place), place.latitude, place.longitude, place.name);
}

/** The part of a place's key that its country, kind and region make (one per PLACE_SECTIONS.where entry). */
export function placeKeyMiddle(place: Pick<Place, "countryCode" | "kind" | "region">): string {
  return `|${place.countryCode}|${PLACE_KINDS.indexOf(place.kind)}|${place.region ?? ""}|`;
}

/** A place's key from its parts: what a reader, which stores no key, derives it from. */
export function placeKeyFrom(nameKey: string, middle: string, latitude: number, longitude: number, name: string) {
  return `${nameKey}${middle}${latitude},${longitude}|${name}`;
}

/** What every page of places says of where they come from: GeoNames' licence asks for credit (CC BY 4.0). */
export const PLACES_ATTRIBUTION =
  "Towns: GeoNames (https://www.geonames.org), CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/). " +
  "Localities and postcode districts: where this service's cinemas are.";
