/**
 * The places' sections of index.pages (layout/places.ts PLACE_SECTIONS, and their word index,
 * searchSections("places")), from the places stage's output, in key order. Keys are not written:
 * the reader derives each from the place's name key and parts.
 */
import {
  type Place,
  PLACE_COORDINATE_UNITS,
  PLACE_SECTIONS,
  placeWhereOf,
} from "../../api/_core/format/layout/places.js";
import { ByteWriter } from "../../api/_core/format/primitives/bytes.js";
import { encodeDictionary, escapeJson } from "../../api/_core/format/primitives/dictionary.js";
import { encodePacked } from "../../api/_core/format/primitives/packed.js";
import { encodeWordIndex } from "./encode-names.js";

/** A place as the places stage hands it over: with its key, its name key and the words it is found by. */
export interface PlaceEntry {
  place: Place;
  key: string;
  nameKey: string;
  words: readonly string[];
}

/** Degrees as whole PLACE_COORDINATE_UNITS; a value with more decimals would be served otherwise, so none is taken. */
export function coordinateUnits(degrees: number): number {
  const units = Math.round(degrees * PLACE_COORDINATE_UNITS);
  if (units / PLACE_COORDINATE_UNITS !== degrees)
    throw new Error(`a place's coordinate ${degrees} has more than 5 decimals: the places stage rounds them`);
  return units;
}

export function encodePlaces(places: readonly PlaceEntry[]): Map<string, Uint8Array> {
  const whereOf = places.map(({ place }) => placeWhereOf(place));
  const wheres = [...new Set(whereOf)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const code = new Map(wheres.map((where, i) => [where, i]));
  const coordinates = new ByteWriter(8 * places.length);
  for (const { place } of places) {
    coordinates.i32(coordinateUnits(place.latitude));
    coordinates.i32(coordinateUnits(place.longitude));
  }
  return new Map([
    [PLACE_SECTIONS.names, encodeDictionary(places.map(({ place }) => escapeJson(place.name)))],
    [PLACE_SECTIONS.where, encodeDictionary(wheres)],
    [PLACE_SECTIONS.wheres, encodePacked(whereOf.map((where) => code.get(where)!))],
    [PLACE_SECTIONS.coordinates, coordinates.finish()],
    [PLACE_SECTIONS.cinemas, encodePacked(places.map(({ place }) => place.cinemasWithin25Km))],
    ...encodeWordIndex("places", places),
  ]);
}
