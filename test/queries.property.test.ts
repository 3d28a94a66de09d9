/**
 * The query parameters apps use (decision: query parameters), against a brute-force oracle:
 * for random datasets (cinemas scattered over a few cities, some without coordinates), random
 * combinations of cinemaId, filmId, startsAfter, startsBefore, attributeIds, near, radiusKm,
 * include, countryCode and changing limits, following nextCursor to the end yields exactly
 * filter-then-sort of the source records, with the oracle's freshness on every page; and a cursor
 * taken before a rebuild resumes after its record in the rebuilt snapshot.
 *
 * Reproducible by default; FC_SEED=<n> explores another part of the space.
 */
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { fileAccess } from "../api/_core/access.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { createHandler, type Handler } from "../api/_core/handle-request.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import {
  type AnyRecord,
  buildDataset,
  type Cinema,
  compareInstants,
  type Dataset,
  foldFreshness,
  formatInstant,
  generateDataset,
  SHOWS_FROM,
  servedCinema,
  type Showtime,
  snapshotFreshness,
} from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";

let root: string;
let accessFile: string;
beforeAll(() => {
  root = makeTempDir("queries");
  accessFile = writeAccessFile(root);
});
afterAll(() => removeDir(root));

// ---- The oracle: written from the contract, sharing no code with the core. ----

const EARTH_KM = 6371.0088;
const rad = (degrees: number) => (degrees * Math.PI) / 180;

function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const h =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

interface Place {
  latitude: number;
  longitude: number;
  radiusKm: number;
}

interface Filters {
  cinemaId?: string;
  filmId?: string;
  startsAfter?: string;
  startsBefore?: string;
  attributeIds?: string[];
  near?: Place;
  /** Sent without radiusKm: the default 25 km applies. */
  defaultRadius?: boolean;
  include?: Array<"film" | "cinema">;
  countryCode?: string;
}

function located(cinema: Cinema): { latitude: number; longitude: number } | undefined {
  const { latitude, longitude } = cinema.location as { latitude?: number; longitude?: number };
  return latitude === undefined || longitude === undefined ? undefined : { latitude, longitude };
}

function distanceTo(cinema: Cinema, near: Place): number | undefined {
  const at = located(cinema);
  return at && distanceKm(near.latitude, near.longitude, at.latitude, at.longitude);
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function expectedShowtimes(dataset: Dataset, f: Filters): Array<Record<string, unknown>> {
  const cinemas = new Map(dataset.cinemas.map((c) => [c.id, servedCinema(c)]));
  const films = new Map(dataset.films.map((x) => [x.id, x]));
  const matching = dataset.showtimes.filter((s) => {
    const cinema = cinemas.get(s.cinemaId)!;
    const distance = f.near && distanceTo(cinema, f.near);
    return (
      (f.cinemaId === undefined || s.cinemaId === f.cinemaId) &&
      (f.filmId === undefined || s.filmId === f.filmId) &&
      (f.startsAfter === undefined || compareInstants(s.startsAt, f.startsAfter) > 0) &&
      (f.startsBefore === undefined || compareInstants(s.startsAt, f.startsBefore) < 0) &&
      (f.attributeIds === undefined || f.attributeIds.every((a) => s.attributeIds.includes(a))) &&
      (f.near === undefined || (distance !== undefined && distance <= f.near.radiusKm))
    );
  });
  matching.sort((a, b) => compareInstants(a.startsAt, b.startsAt) || byId(a, b));
  return matching.map((s) => ({
    ...s,
    // Near a point a showtime carries its cinema's distance, before any embedded record.
    ...(f.near ? { distanceKm: Math.round(distanceTo(cinemas.get(s.cinemaId)!, f.near)! * 1000) / 1000 } : {}),
    ...(f.include?.includes("film") ? { film: films.get(s.filmId) } : {}),
    ...(f.include?.includes("cinema") ? { cinema: cinemas.get(s.cinemaId) } : {}),
  }));
}

function expectedCinemas(dataset: Dataset, f: Filters): Array<Record<string, unknown>> {
  const chosen = dataset.cinemas
    .map(servedCinema)
    .filter(
      (c) => f.countryCode === undefined || (c.location as { countryCode?: string }).countryCode === f.countryCode,
    )
    .map((c) => ({ cinema: c, distance: f.near ? distanceTo(c, f.near) : 0 }))
    .filter(({ distance }) => !f.near || (distance !== undefined && distance <= f.near.radiusKm));
  chosen.sort((a, b) => (f.near ? a.distance! - b.distance! : 0) || byId(a.cinema, b.cinema));
  return chosen.map(({ cinema, distance }) =>
    f.near ? { ...cinema, distanceKm: Math.round(distance! * 1000) / 1000 } : { ...cinema },
  );
}

/** The records a page's freshness covers, in the order they are folded: each showtime, then what it embeds. */
function provenanceRecords(page: Array<Record<string, unknown>>): AnyRecord[] {
  return page.flatMap((r) => [r, r.film, r.cinema].filter((x) => x !== undefined) as AnyRecord[]);
}

// ---- Datasets with places, and queries over them. ----

const CITIES = [
  { latitude: 52.52, longitude: 13.405, country: "DE" },
  { latitude: 48.1351, longitude: 11.582, country: "DE" },
  { latitude: 51.5072, longitude: -0.1276, country: "GB" },
  { latitude: -33.8688, longitude: 151.2093, country: "AU" },
];

/** Scatters the dataset's cinemas over the cities (within ~30 km), a few without coordinates, two at one spot. */
function withPlaces(dataset: Dataset, seed: number): Dataset {
  let state = seed >>> 0 || 1;
  const next = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  const cinemas = dataset.cinemas.map((c, i) => {
    const city = CITIES[i % CITIES.length]!;
    const { latitude: _lat, longitude: _lon, ...rest } = c.location as Record<string, unknown>;
    if (i % 5 === 4) return { ...c, location: { ...rest, countryCode: city.country } };
    const jitter = i === 1 ? 0 : 1;
    const latitude = Number((city.latitude + jitter * (next() - 0.5) * 0.5).toFixed(5));
    const longitude = Number((city.longitude + jitter * (next() - 0.5) * 0.5).toFixed(5));
    return { ...c, location: { ...rest, countryCode: city.country, latitude, longitude } };
  });
  // Cinema 5 shares cinema 1's spot: a tie in distance, broken by id.
  if (cinemas[5] && cinemas[1]) cinemas[5] = { ...cinemas[5], location: { ...cinemas[1].location } };
  // An attribute id holding a comma: attributeIds sends it as %2C between literal separators.
  const renamed = (id: string) => (id === "event-q&a" ? "event-q&a,late" : id);
  return {
    ...dataset,
    cinemas,
    attributes: dataset.attributes.map((a) => ({ ...a, id: renamed(a.id) })),
    showtimes: dataset.showtimes.map((st) => ({ ...st, attributeIds: st.attributeIds.map(renamed) })),
  };
}

interface QuerySpec {
  resource: "showtimes" | "cinemas";
  cinema?: number | undefined;
  film?: number | undefined;
  after?: number | undefined;
  window?: number | undefined;
  /** startsBefore at a showtime's own instant (as written): the bound is exclusive. */
  before?: number | undefined;
  attributes?: number[] | undefined;
  unknownAttribute?: boolean;
  near?: { city: number; radius?: number | undefined; dLat: number; dLon: number } | undefined;
  include?: Array<"film" | "cinema"> | undefined;
  country?: number | undefined;
  limits: number[];
}

/** Present a third of the time: most queries combine a few filters, and their pages are not all empty. */
const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

const querySpecArb: fc.Arbitrary<QuerySpec> = fc.record({
  resource: fc.constantFrom("showtimes" as const, "showtimes" as const, "cinemas" as const),
  cinema: sometimes(fc.nat()),
  film: sometimes(fc.nat()),
  after: sometimes(fc.nat()),
  window: sometimes(fc.integer({ min: 0, max: 5 * 3600 })),
  before: sometimes(fc.nat()),
  attributes: sometimes(fc.uniqueArray(fc.nat({ max: 20 }), { minLength: 1, maxLength: 2 })),
  unknownAttribute: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  near: fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.record({
        city: fc.nat({ max: CITIES.length - 1 }),
        radius: fc.option(fc.constantFrom(0.001, 1, 5, 12.5, 25, 60, 500), { nil: undefined }),
        dLat: fc.integer({ min: -2000, max: 2000 }),
        dLon: fc.integer({ min: -2000, max: 2000 }),
      }),
    },
  ),
  include: sometimes(fc.subarray(["film", "cinema"] as Array<"film" | "cinema">, { minLength: 1 })),
  country: sometimes(fc.nat({ max: 4 })),
  limits: fc.array(fc.constantFrom(1, 2, 5, 25, 100), { minLength: 1, maxLength: 3 }),
});

/** A query's indexes resolved against one dataset. */
function filtersOf(dataset: Dataset, spec: QuerySpec): Filters {
  const f: Filters = {};
  const pick = <T>(items: readonly T[], i: number | undefined) =>
    i === undefined || items.length === 0 ? undefined : items[i % items.length];
  if (spec.near) {
    const city = CITIES[spec.near.city]!;
    const latitude = Number((city.latitude + spec.near.dLat / 10_000).toFixed(4));
    const longitude = Number((city.longitude + spec.near.dLon / 10_000).toFixed(4));
    f.near = { latitude, longitude, radiusKm: spec.near.radius ?? 25 };
    f.defaultRadius = spec.near.radius === undefined;
  }
  if (spec.resource === "cinemas") {
    if (spec.country !== undefined) f.countryCode = ["DE", "GB", "AU", "FR", "US"][spec.country];
    return f;
  }
  f.cinemaId = pick(dataset.cinemas, spec.cinema)?.id;
  f.filmId = pick(dataset.films, spec.film)?.id;
  const start = pick(dataset.showtimes, spec.after)?.startsAt;
  if (start !== undefined) f.startsAfter = start;
  if (spec.window !== undefined) {
    const base = start === undefined ? SHOWS_FROM : Math.floor(Date.parse(start) / 1000);
    f.startsBefore = formatInstant(base + spec.window, "", 0);
  }
  const before = pick(dataset.showtimes, spec.before)?.startsAt;
  if (before !== undefined) f.startsBefore = before;
  if (spec.attributes) {
    f.attributeIds = spec.attributes.map((i) => dataset.attributes[i % dataset.attributes.length]!.id);
    f.attributeIds = [...new Set(f.attributeIds)];
    if (spec.unknownAttribute) f.attributeIds.push("no-such,attribute");
  }
  if (spec.include?.length) f.include = spec.include;
  for (const key of Object.keys(f) as Array<keyof Filters>) if (f[key] === undefined) delete f[key];
  return f;
}

function urlOf(resource: string, f: Filters, limit: number, cursor: string | null): string {
  const params: string[] = [`limit=${limit}`];
  const add = (name: string, value: string) => params.push(`${name}=${encodeURIComponent(value)}`);
  if (f.cinemaId !== undefined) add("cinemaId", f.cinemaId);
  if (f.filmId !== undefined) add("filmId", f.filmId);
  if (f.startsAfter !== undefined) add("startsAfter", f.startsAfter);
  if (f.startsBefore !== undefined) add("startsBefore", f.startsBefore);
  // Each id encoded on its own: a comma inside an id travels as %2C, the separators stay literal.
  if (f.attributeIds) params.push(`attributeIds=${f.attributeIds.map(encodeURIComponent).join(",")}`);
  if (f.near) {
    params.push(`near=${f.near.latitude.toFixed(4)},${f.near.longitude.toFixed(4)}`);
    if (!f.defaultRadius) add("radiusKm", String(f.near.radiusKm));
  }
  if (f.countryCode !== undefined) add("countryCode", f.countryCode);
  if (f.include) params.push(`include=${f.include.join(",")}`);
  if (cursor) add("cursor", cursor);
  return `/v1/${resource}?${params.join("&")}`;
}

async function getJson(handle: Handler, url: string) {
  const res = await handle({ method: "GET", url, headers: { authorization: `Bearer ${KEYS.bulk}` } });
  expect(res.status, `${url}: ${res.body.toString()}`).toBe(200);
  return JSON.parse(res.body.toString("utf8"));
}

/** Pages through one query to its end, checking every page against the oracle. */
async function checkQuery(handle: Handler, dataset: Dataset, spec: QuerySpec): Promise<void> {
  const f = filtersOf(dataset, spec);
  const expected = spec.resource === "cinemas" ? expectedCinemas(dataset, f) : expectedShowtimes(dataset, f);
  if (process.env.STATS) console.log("STAT", spec.resource, Object.keys(f).join("+"), expected.length);
  const fallback = snapshotFreshness(dataset);
  let cursor: string | null = null;
  let served = 0;
  for (let page = 0; page === 0 || cursor !== null; page++) {
    const limit = spec.limits[page % spec.limits.length]!;
    const url = urlOf(spec.resource, f, limit, cursor);
    const body = await getJson(handle, url);
    const want = expected.slice(served, served + limit);
    expect(body.data, url).toEqual(want);
    expect(body.freshness, `freshness of ${url}`).toEqual(foldFreshness(provenanceRecords(want), fallback));
    served += want.length;
    expect(body.pagination.hasMore, url).toBe(served < expected.length);
    cursor = body.pagination.nextCursor;
    expect(cursor === null, url).toBe(served >= expected.length);
  }
}

const datasetArb = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  showtimes: fc.oneof(
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 5 }) },
    { weight: 4, arbitrary: fc.integer({ min: 40, max: 400 }) },
  ),
  cinemas: fc.integer({ min: 2, max: 9 }),
  films: fc.integer({ min: 0, max: 4 }),
});

async function openDataset(dataset: Dataset, dir: string): Promise<Handler> {
  const snapshotDir = path.join(dir, "snapshot");
  await buildDataset(dataset, dir, snapshotDir);
  return createHandler({
    snapshots: new SnapshotSource(snapshotDir),
    access: fileAccess(accessFile),
    now: () => TEST_NOW,
  });
}

test("every combination of filters pages through exactly filter-then-sort of the source", async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(datasetArb, fc.array(querySpecArb, { minLength: 6, maxLength: 14 }), async (options, specs) => {
      const dir = path.join(root, `run-${run++}`);
      try {
        const dataset = withPlaces(generateDataset(options), options.seed);
        const handle = await openDataset(dataset, dir);
        for (const spec of specs) await checkQuery(handle, dataset, spec);
      } finally {
        removeDir(dir);
      }
    }),
    { numRuns: 12, seed: Number(process.env.FC_SEED ?? 20_261_125) },
  );
}, 240_000);

test("a cursor from before a rebuild resumes right after its record in the rebuilt snapshot", async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(datasetArb, fc.array(querySpecArb, { minLength: 4, maxLength: 8 }), async (options, specs) => {
      const dir = path.join(root, `rebuild-${run++}`);
      try {
        const before = withPlaces(generateDataset(options), options.seed);
        // The rebuild drops every third showtime and moves every fourth cinema a little.
        const after: Dataset = {
          ...before,
          showtimes: before.showtimes.filter((_, i) => i % 3 !== 0),
          cinemas: before.cinemas.map((c, i) => {
            const at = located(c);
            return i % 4 === 0 && at
              ? { ...c, location: { ...c.location, latitude: Number((at.latitude + 0.01).toFixed(5)) } }
              : c;
          }),
        };
        const first = await openDataset(before, path.join(dir, "before"));
        const second = await openDataset(after, path.join(dir, "after"));
        for (const spec of specs) {
          const f = filtersOf(before, spec);
          const url = urlOf(spec.resource, f, 1, null);
          const page = await getJson(first, url);
          if (!page.pagination.nextCursor) continue;
          const last = page.data[0];
          // Resumes after the last record's sort key, as the rebuilt data orders it.
          const rest = spec.resource === "cinemas" ? expectedCinemas(after, f) : expectedShowtimes(after, f);
          const lastKey = spec.resource === "cinemas" && f.near ? [last.distanceKm, last.id] : [last.startsAt, last.id];
          const pastLast = rest.filter((r) => {
            if (spec.resource === "showtimes") {
              const order = compareInstants(r.startsAt as string, lastKey[0]);
              return order > 0 || (order === 0 && (r.id as string) > lastKey[1]);
            }
            if (!f.near) return (r.id as string) > last.id;
            // The cursor holds the exact distance; the page shows it rounded, so compare on the source's distance.
            const exact = distanceTo(before.cinemas.find((c) => c.id === last.id)!, f.near)!;
            const mine = distanceTo(after.cinemas.find((c) => c.id === r.id)!, f.near)!;
            return mine > exact || (mine === exact && (r.id as string) > last.id);
          });
          const next = await getJson(second, urlOf(spec.resource, f, 100, page.pagination.nextCursor));
          expect(next.data, url).toEqual(pastLast.slice(0, 100));
        }
      } finally {
        removeDir(dir);
      }
    }),
    { numRuns: 4, seed: Number(process.env.FC_SEED ?? 20_261_126) },
  );
}, 240_000);

void ({} as Showtime);
