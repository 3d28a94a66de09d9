/**
 * The places stage (decision: places): a snapshot's places are the gazetteer's towns in its countries,
 * its cinemas' localities that no namesake town within 25 km stands for, and its cinemas' postcode
 * districts, each with how many of the snapshot's cinemas lie within 25 km of it, counted on the
 * grid `near` searches with (query/cinema-selection.ts GeoIndex), so the count is what `near` with
 * the place's coordinates lists. Places with no cinema near are kept: "none within 25 km" is an
 * answer, where "no such place" would send an assistant looking for another spelling.
 */
import type { PlainRecord } from "../../api/_core/format/layout/content.js";
import { indexWordsOf, nameKeyOf } from "../../api/_core/format/layout/name-words.js";
import { type Place, PLACE_RADIUS_KM, type PlaceKind, placeKeyOf } from "../../api/_core/format/layout/places.js";
import { GeoIndex, haversineKm } from "../../api/_core/format/query/cinema-selection.js";
import type { PlaceEntry } from "../encode/encode-places.js";
import type { GazetteerPlace } from "./read-gazetteer.js";

/** What the stage reads of a cinema. */
interface CinemaFacts {
  countryCode: string;
  locality: string;
  postcode: string;
  latitude?: number;
  longitude?: number;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Coordinates made by the build (a centroid) keep 5 decimals, as the gazetteer's do (about a metre). */
const round5 = (degrees: number) => Math.round(degrees * 1e5) / 1e5;

/**
 * The countries a snapshot's places are in: those of its cinemas, with or without markets, so a
 * market's snapshot is what a build of its data alone writes (decision: places, markets).
 */
export function placeCountriesOf(cinemas: readonly PlainRecord[]): string[] {
  const countries = cinemas.map((cinema) => cinema.countryCode ?? "");
  return [...new Set(countries)].filter((code) => code !== "").sort(compare);
}

function factsOf(cinema: PlainRecord): CinemaFacts {
  const { location } = JSON.parse(Buffer.from(cinema.json).toString("utf8"));
  return { ...location, latitude: cinema.latitude, longitude: cinema.longitude };
}

/**
 * A postcode's district: its outward part, before the space (`WC2H 7JY`: `WC2H`, `K1A 0B1`: `K1A`);
 * a British postcode written without its space likewise; a ZIP+4's ZIP; otherwise the whole code.
 */
export function postcodeDistrictOf(postcode: string, countryCode: string): string {
  const code = postcode.trim().toUpperCase();
  const space = code.search(/\s/);
  if (space > 0) return code.slice(0, space);
  if (/^[0-9]{5}-[0-9]{4}$/.test(code)) return code.slice(0, 5);
  if (["GB", "GG", "JE", "IM"].includes(countryCode) && /^[A-Z]{1,2}[0-9][0-9A-Z]?[0-9][A-Z]{2}$/.test(code))
    return code.slice(0, -3);
  return code;
}

/** Cinemas grouped by a name of theirs in their country: its most written spelling and where they are on average. */
function groupedPlaces(cinemas: readonly CinemaFacts[], kind: PlaceKind, nameOf: (c: CinemaFacts) => string): Place[] {
  const groups = new Map<string, { spellings: Map<string, number>; latitude: number; longitude: number; n: number }>();
  for (const cinema of cinemas) {
    const name = nameOf(cinema).trim();
    const nameKey = nameKeyOf(name);
    if (nameKey === "") continue;
    const id = `${cinema.countryCode}|${nameKey}`;
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { spellings: new Map(), latitude: 0, longitude: 0, n: 0 }));
    group.spellings.set(name, (group.spellings.get(name) ?? 0) + 1);
    if (cinema.latitude === undefined || cinema.longitude === undefined) continue;
    group.latitude += cinema.latitude;
    group.longitude += cinema.longitude;
    group.n++;
  }
  const places: Place[] = [];
  for (const [id, group] of groups) {
    // A place is somewhere: without a cinema with coordinates, none.
    if (group.n === 0) continue;
    const [name] = [...group.spellings].sort(([a, m], [b, n]) => n - m || compare(a, b))[0]!;
    const countryCode = id.slice(0, id.indexOf("|"));
    const [latitude, longitude] = [round5(group.latitude / group.n), round5(group.longitude / group.n)];
    places.push({ name, kind, countryCode, latitude, longitude, cinemasWithin25Km: 0 });
  }
  return places;
}

/** A place with its name key, before its count. */
interface Named {
  place: Place;
  nameKey: string;
}

/** Whether a town of the same name and country lies within 25 km of the locality: then it stands for it. */
function hasNamesakeTown(locality: Named, towns: ReadonlyMap<string, readonly Place[]>): boolean {
  const { place } = locality;
  return (towns.get(`${place.countryCode}|${locality.nameKey}`) ?? []).some(
    (town) => haversineKm(town.latitude, town.longitude, place.latitude, place.longitude) <= PLACE_RADIUS_KM,
  );
}

const named = (place: Place): Named => ({ place, nameKey: nameKeyOf(place.name) });

/** What a place is found and ordered by: its name key, its words (its name's and region's), its key. */
interface Found {
  nameKey: string;
  words: readonly string[];
  key: string;
}

/** A region's words, the same for each of its hundreds of towns. */
const regionWords = new Map<string, readonly string[]>();

function foundBy({ place, nameKey }: Named): Found {
  const region = place.region ?? "";
  let inRegion = regionWords.get(region);
  if (!inRegion) regionWords.set(region, (inRegion = indexWordsOf(region)));
  return { nameKey, words: [...new Set([...indexWordsOf(place.name), ...inRegion])], key: placeKeyOf(place, nameKey) };
}

/**
 * A gazetteer town's Found, made once per town for the process: it depends on the town alone, and the
 * gazetteer's towns are kept between builds (read-gazetteer.ts), so a process building again (the
 * tests, a release of markets) makes each once, where making 12,000 costs some 80 ms.
 */
const townsFound = new WeakMap<GazetteerPlace, { town: Place; found: Found }>();

function townOf(gazetteerPlace: GazetteerPlace): { town: Place; found: Found } {
  let known = townsFound.get(gazetteerPlace);
  if (!known) {
    const town = Object.freeze<Place>({ ...gazetteerPlace, kind: "town", cinemasWithin25Km: 0 });
    townsFound.set(gazetteerPlace, (known = { town, found: foundBy(named(town)) }));
  }
  return known;
}

/** The snapshot's places, with their counts, keyed, in key order (each key once). */
export function findPlaces(cinemaRecords: readonly PlainRecord[], gazetteer: readonly GazetteerPlace[]): PlaceEntry[] {
  const cinemas = cinemaRecords.map(factsOf);
  const towns = gazetteer.map(townOf);
  const byName = new Map<string, Place[]>();
  for (const { town, found } of towns) {
    const id = `${town.countryCode}|${found.nameKey}`;
    let namesakes = byName.get(id);
    if (!namesakes) byName.set(id, (namesakes = []));
    namesakes.push(town);
  }
  const localities = groupedPlaces(cinemas, "locality", (c) => c.locality)
    .map(named)
    .filter((locality) => !hasNamesakeTown(locality, byName));
  const districts = groupedPlaces(cinemas, "postcodeDistrict", (c) => postcodeDistrictOf(c.postcode, c.countryCode));
  const geo = new Float64Array(2 * cinemas.length).fill(Number.NaN);
  cinemas.forEach((c, i) => {
    if (c.latitude !== undefined && c.longitude !== undefined) geo.set([c.latitude, c.longitude], 2 * i);
  });
  const grid = new GeoIndex(geo);
  const keyed = new Map<string, PlaceEntry>();
  const add = (place: Place, found: Found) => {
    if (found.nameKey === "" || keyed.has(found.key)) return;
    const near = { latitude: place.latitude, longitude: place.longitude, radiusKm: PLACE_RADIUS_KM };
    keyed.set(found.key, { place: { ...place, cinemasWithin25Km: grid.within(near).length }, ...found });
  };
  for (const { town, found } of towns) add(town, found);
  for (const place of [...localities, ...districts.map(named)]) add(place.place, foundBy(place));
  return [...keyed.values()].sort((a, b) => compare(a.key, b.key));
}
