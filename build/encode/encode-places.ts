/**
 * The places' sections of index.pages (layout/places.ts PLACE_SECTIONS, and their word index,
 * searchSections("places")), from the places stage's output, in key order.
 */
import { type Place, PLACE_SECTIONS, placeJson } from "../../api/_core/format/layout/places.js";
import { ByteWriter } from "../../api/_core/format/primitives/bytes.js";
import { encodeDictionary } from "../../api/_core/format/primitives/dictionary.js";
import { encodeWordIndex } from "./encode-names.js";

/** A place as the places stage hands it over: with its key, its name key and the words it is found by. */
export interface PlaceEntry {
  place: Place;
  key: string;
  nameKey: string;
  words: readonly string[];
}

export function encodePlaces(places: readonly PlaceEntry[]): Map<string, Uint8Array> {
  const cinemas = new ByteWriter(4 * places.length);
  for (const { place } of places) cinemas.u32(place.cinemasWithin25Km);
  return new Map([
    [PLACE_SECTIONS.records, encodeDictionary(places.map(({ place }) => placeJson(place)))],
    [PLACE_SECTIONS.keys, encodeDictionary(places.map(({ key }) => key))],
    [PLACE_SECTIONS.cinemas, cinemas.finish()],
    [PLACE_SECTIONS.countries, Buffer.from(places.map(({ place }) => place.countryCode).join(""), "latin1")],
    ...encodeWordIndex("places", places),
  ]);
}
