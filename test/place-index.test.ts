/**
 * The places' stored layout (decision: places, stored): a place's JSON and key are derived from its
 * name, coordinates in whole 1e-5 degrees, cinema count and shared country, kind and region, and read
 * back byte for byte as placeJson and placeKeyOf make them; coordinates with more than 5 decimals are
 * refused by the build; sections that disagree with each other, every checksum intact, are a
 * SnapshotError (a 503), never a wrong place.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { indexWordsOf, nameKeyOf } from "../api/_core/format/layout/name-words.js";
import { type Place, PLACE_SECTIONS, placeJson, placeKeyOf } from "../api/_core/format/layout/places.js";
import { DiskFile } from "../api/_core/format/primitives/disk-file.js";
import { encodeDictionary } from "../api/_core/format/primitives/dictionary.js";
import { SnapshotError } from "../api/_core/format/primitives/errors.js";
import { LruCache } from "../api/_core/format/primitives/lru.js";
import { encodePacked } from "../api/_core/format/primitives/packed.js";
import { PageBuffer } from "../api/_core/format/primitives/page-buffer.js";
import { PagedFile, PagedFileWriter } from "../api/_core/format/primitives/paged-file.js";
import { PlaceIndex } from "../api/_core/format/read/place-index.js";
import { coordinateUnits, encodePlaces, type PlaceEntry } from "../build/encode/encode-places.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";

let root: string;
beforeAll(() => {
  root = makeTempDir("place-index");
});
afterAll(() => removeDir(root));

const town = (name: string, region: string | undefined, latitude: number, longitude: number, cinemas = 0): Place => ({
  name,
  kind: "town",
  ...(region === undefined ? {} : { region }),
  countryCode: "GB",
  latitude,
  longitude,
  cinemasWithin25Km: cinemas,
});

/** Places at the bounds of what is stored: escapes, accents, no region, every kind, the poles and the date line. */
const PLACES: Place[] = [
  town("London", "England", 51.50853, -0.12574, 312),
  town("London", "England", 51.5, -0.2),
  town("London", "Ontario", 42.98339, -81.23304),
  town('The "Quoted" \\ Place', 'Region "Q"', -0.00001, 0.00001),
  town("Zürich-Örlikon", undefined, 90, -180),
  town("South Pole", "Antarctica", -90, 180, 70_000),
  { ...town("München", undefined, 48.1397, 11.5627, 1), kind: "locality", countryCode: "DE" },
  { ...town("WC2H", undefined, 51.5103, -0.1301, 1), kind: "postcodeDistrict" },
  { ...town("東京", "Tokyo", 35.6895, 139.69171), countryCode: "JP" },
];

function entriesOf(places: readonly Place[]): PlaceEntry[] {
  return places
    .map((place) => {
      const nameKey = nameKeyOf(place.name);
      const words = [...new Set([...indexWordsOf(place.name), ...indexWordsOf(place.region ?? "")])];
      return { place, key: placeKeyOf(place, nameKey), nameKey, words };
    })
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

let written = 0;
/** The places' sections, `tamper`ed, in a paged file of their own, opened as the server opens index.pages. */
function openPlaces(sections: Map<string, Uint8Array>, tamper = (_: Map<string, Uint8Array>) => {}): PlaceIndex {
  tamper(sections);
  const file = path.join(root, `index-${written++}.pages`);
  const fd = openSync(file, "w");
  const writer = new PagedFileWriter({ append: (bytes) => void writeSync(fd, bytes), close: () => closeSync(fd) });
  for (const [name, bytes] of sections) writer.add(name, bytes);
  const { digest } = writer.finish();
  return new PlaceIndex(new PagedFile(new DiskFile(file, "index.pages"), digest, new LruCache(1 << 20)));
}

describe("a place read back", () => {
  const entries = entriesOf(PLACES);
  let places: PlaceIndex;
  beforeAll(() => {
    places = openPlaces(encodePlaces(entries));
  });

  test("is its JSON byte for byte, its fields and its key, in key order", () => {
    expect(places.count).toBe(PLACES.length);
    const out = new PageBuffer(16);
    entries.forEach(({ place, key }, i) => {
      out.reset();
      places.render(i, out);
      expect(out.lend().toString("utf8")).toBe(placeJson(place));
      expect(places.place(i)).toEqual(place);
      expect(places.key(i)).toBe(key);
      expect(places.cinemasNear(i)).toBe(place.cinemasWithin25Km);
      expect(places.isIn(i, place.countryCode)).toBe(true);
      expect(places.isIn(i, "FR")).toBe(false);
    });
  });

  test("a page resumes after a key: the next place, also for a key no place has", () => {
    entries.forEach(({ key }, i) => {
      expect(places.after(key)).toBe(i + 1);
      expect(places.after(key.slice(0, -1))).toBe(i);
    });
  });
});

describe("coordinates stored as whole 1e-5 degrees", () => {
  test.each([
    [51.50853, 5_150_853],
    [-0.12574, -12_574],
    [-180, -18_000_000],
    [90, 9_000_000],
    [0.00001, 1],
  ])("%f is %i", (degrees, units) => {
    expect(coordinateUnits(degrees)).toBe(units);
    expect(units / 1e5).toBe(degrees);
  });

  test.each([[51.508531], [0.000001], [-0.123456]])("%f, with a sixth decimal, is refused", (degrees) => {
    expect(() => coordinateUnits(degrees)).toThrow("more than 5 decimals");
  });
});

describe("places sections that disagree, every checksum intact (a writer's bug)", () => {
  const entries = entriesOf(PLACES);
  const n = entries.length;
  const i32s = (values: number[]) => new Uint8Array(Int32Array.from(values).buffer);
  /** Places i's and j's pairs swapped (the two Londons of England are places 0 and 1). */
  const swapped = (pairs: readonly number[], i: number, j: number) => {
    const out = [...pairs];
    out.splice(2 * i, 2, pairs[2 * j]!, pairs[2 * j + 1]!);
    out.splice(2 * j, 2, pairs[2 * i]!, pairs[2 * i + 1]!);
    return out;
  };
  const coordinates = entries.flatMap(({ place }) => [
    coordinateUnits(place.latitude),
    coordinateUnits(place.longitude),
  ]);

  test.each<[string, (sections: Map<string, Uint8Array>) => void, string]>([
    [
      "a name fewer than places",
      (s) => s.set(PLACE_SECTIONS.names, encodeDictionary(entries.slice(1).map((e) => e.place.name))),
      "do not match one another",
    ],
    [
      "a country, kind and region code past the last",
      (s) => s.set(PLACE_SECTIONS.wheres, encodePacked(Array(n).fill(n))),
      "that do not exist",
    ],
    [
      "a code per place missing",
      (s) => s.set(PLACE_SECTIONS.wheres, encodePacked(Array(n - 1).fill(0))),
      "do not match",
    ],
    [
      "a kind that is none",
      (s) => s.set(PLACE_SECTIONS.where, encodeDictionary(["DE1", "GB0England", "GB7"])),
      "not one",
    ],
    ["a lower-case country", (s) => s.set(PLACE_SECTIONS.where, encodeDictionary(["de1"])), "not one"],
    ["a coordinate pair missing", (s) => s.set(PLACE_SECTIONS.coordinates, i32s(coordinates.slice(2))), "do not match"],
    [
      "a latitude past the pole",
      (s) => s.set(PLACE_SECTIONS.coordinates, i32s([9_000_001, ...coordinates.slice(1)])),
      "latitude that is not one",
    ],
    [
      "a longitude past the date line",
      (s) => s.set(PLACE_SECTIONS.coordinates, i32s([coordinates[0]!, -18_000_001, ...coordinates.slice(2)])),
      "longitude that is not one",
    ],
    [
      "two namesakes' coordinates swapped (keys out of order)",
      (s) => s.set(PLACE_SECTIONS.coordinates, i32s(swapped(coordinates, 0, 1))),
      "out of order",
    ],
    [
      "a cinema count missing",
      (s) => s.set(PLACE_SECTIONS.cinemas, encodePacked(Array(n - 1).fill(0))),
      "do not match",
    ],
    ["a section gone", (s) => s.delete(PLACE_SECTIONS.cinemas), "has no section places.cinemas"],
  ])("%s: a SnapshotError", (_, tamper, message) => {
    expect(() => openPlaces(encodePlaces(entries), tamper)).toThrow(SnapshotError);
    expect(() => openPlaces(encodePlaces(entries), tamper)).toThrow(message);
  });
});
