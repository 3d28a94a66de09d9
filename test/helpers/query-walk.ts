/**
 * Walking list queries against the brute-force oracle (query-oracle.ts): datasets whose cinemas
 * lie around a few cities with names in several scripts, a snapshot built from one, and every
 * page of a query checked, to its end, against the oracle's filter-then-sort.
 */
import path from "node:path";
import fc from "fast-check";
import { expect } from "vitest";
import { fileAccess } from "../../api/_core/gate/access.js";
import { SnapshotSource } from "../../api/_core/format/read/snapshot-source.js";
import { createHandler, type Handler } from "../../api/_core/handle-request.js";
import {
  type AnyRecord,
  buildDataset,
  compareInstants,
  type Cinema,
  type Dataset,
  foldFreshness,
  generateDataset,
  snapshotFreshness,
} from "./dataset.js";
import { KEYS, TEST_NOW } from "./http-setup.js";
import { removeDir } from "./build-helpers.js";
import {
  CITIES,
  contextOf,
  distanceTo,
  expectedRecords,
  foldedWords,
  nameRankIn,
  type OracleContext,
  type OracleQuery,
  type Place,
  urlOf,
} from "./query-oracle.js";

/** The records a page's freshness covers, in the order they are folded: each record, then what it embeds. */
export function provenanceRecords(page: Array<Record<string, unknown>>): AnyRecord[] {
  return page.flatMap((r) => [r, r.film, r.cinema].filter((x) => x !== undefined) as AnyRecord[]);
}

export function located(cinema: Cinema): { latitude: number; longitude: number } | undefined {
  const { latitude, longitude } = cinema.location as { latitude?: number; longitude?: number };
  return latitude === undefined || longitude === undefined ? undefined : { latitude, longitude };
}

const TITLES = [
  "Dune: Part Two",
  "Dune",
  "Amélie",
  "千と千尋の神隠し",
  "L'Odyssée",
  "ภาพยนตร์ สวัสดี",
  "Ωμέγα Ёлка",
  "The Dune Sea",
  "Ørsted Łódź Straße",
  "spider-man 2",
];
const CINEMA_NAMES = ["Odeon Leicester Square", "Ciné Lumière", "Kino Köln", "Odeon", "Filmhaus an der Straße"];
const LOCALITIES = ["London", "Köln", "Zürich", "München", "東京"];

/** Scatters the dataset's cinemas over the cities (within ~30 km), a few without coordinates, two at one spot. */
export function withPlaces(dataset: Dataset, seed: number): Dataset {
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
  // Names in several scripts, with accents, apostrophes and letters that fold (decision: name search).
  const films = dataset.films.map((f, i) => ({ ...f, title: TITLES[i % TITLES.length]! }));
  for (const [i, c] of cinemas.entries()) {
    c.name = CINEMA_NAMES[i % CINEMA_NAMES.length]!;
    (c.location as Record<string, unknown>).locality = LOCALITIES[i % LOCALITIES.length]!;
  }
  // An attribute id holding a comma: attributeIds sends it as %2C between literal separators.
  const renamed = (id: string) => (id === "event-q&a" ? "event-q&a,late" : id);
  return {
    ...dataset,
    cinemas,
    films,
    attributes: dataset.attributes.map((a) => ({ ...a, id: renamed(a.id) })),
    showtimes: dataset.showtimes.map((st) => ({ ...st, attributeIds: st.attributeIds.map(renamed) })),
  };
}

export type QuerySpec = { query: (ctx: OracleContext) => OracleQuery; limits: number[] };

export async function getJson(handle: Handler, url: string) {
  const res = await handle({ method: "GET", url, headers: { authorization: `Bearer ${KEYS.bulk}` } });
  expect(res.status, `${url}: ${res.body.toString()}`).toBe(200);
  return JSON.parse(res.body.toString("utf8"));
}

/** Pages through one query to its end, checking every page against the oracle. */
export async function checkQuery(handle: Handler, dataset: Dataset, spec: QuerySpec): Promise<void> {
  const ctx = contextOf(dataset);
  const query = spec.query(ctx);
  const expected = expectedRecords(ctx, query);
  if (process.env.STATS) console.log("STAT", query.resource, Object.keys(query.given).join("+"), expected.length);
  const fallback = snapshotFreshness(dataset);
  let cursor: string | null = null;
  let served = 0;
  for (let page = 0; page === 0 || cursor !== null; page++) {
    const limit = spec.limits[page % spec.limits.length]!;
    const url = urlOf(query, limit, cursor);
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

export const datasetArb = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  showtimes: fc.oneof(
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 5 }) },
    { weight: 4, arbitrary: fc.integer({ min: 40, max: 400 }) },
  ),
  cinemas: fc.integer({ min: 2, max: 9 }),
  films: fc.integer({ min: 0, max: 4 }),
});

export async function openDataset(dataset: Dataset, dir: string, accessFile: string): Promise<Handler> {
  const snapshotDir = path.join(dir, "snapshot");
  await buildDataset(dataset, dir, snapshotDir);
  return createHandler({
    snapshots: new SnapshotSource(snapshotDir),
    access: fileAccess(accessFile),
    now: () => TEST_NOW,
  });
}

/**
 * Whether `record` of the rebuilt data comes after the page's `last` record by the key a cursor
 * holds (decision: pagination): a list's own order, `last`'s values as they were when served (its
 * exact distance from `before`, since a page shows it rounded).
 */
export function isPastKey(
  query: OracleQuery,
  record: Record<string, unknown>,
  last: Record<string, unknown>,
  data: { before: Dataset; after: Dataset },
): boolean {
  if (query.resource === "showtimes") {
    const order = compareInstants(record.startsAt as string, last.startsAt as string);
    return order > 0 || (order === 0 && (record.id as string) > (last.id as string));
  }
  const texts = (r: Record<string, unknown>) =>
    query.resource === "films"
      ? [r.title as string]
      : [r.name as string, (r.location as { locality: string }).locality];
  const q = query.given.q as string | undefined;
  if (q !== undefined) {
    const named = query.resource === "films" ? "films" : "cinemas";
    const mine = nameRankIn(data.after, named, texts(record), q)!;
    const theirs = nameRankIn(data.before, named, texts(last), q)!;
    if (mine !== theirs) return mine > theirs;
  }
  if (query.resource === "films" && last.matchingShowtimes) {
    const count = (r: Record<string, unknown>) => (r.matchingShowtimes as { count: number }).count;
    if (count(record) !== count(last)) return count(record) < count(last);
    const [mine, theirs] = [foldedWords(record.title as string).join(" "), foldedWords(last.title as string).join(" ")];
    if (mine !== theirs) return mine > theirs;
  }
  const near = query.given.near as Place | undefined;
  if (query.resource === "cinemas" && near) {
    const exact = distanceTo(data.before.cinemas.find((c) => c.id === last.id)!, near)!;
    const mine = distanceTo(data.after.cinemas.find((c) => c.id === record.id)!, near)!;
    if (mine !== exact) return mine > exact;
  }
  return (record.id as string) > (last.id as string);
}

/** Where a property's datasets are built, and its run count and seed (FC_SEED overrides the seed). */
export interface PropertyRuns {
  root: string;
  accessFile: string;
  runs: number;
  seed: number;
}

/** For random datasets with places, every query of `specs` pages through exactly what the oracle expects. */
export async function checkRandomQueries(specs: fc.Arbitrary<QuerySpec[]>, runs: PropertyRuns): Promise<void> {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(datasetArb, specs, async (options, drawn) => {
      const dir = path.join(runs.root, `run-${run++}`);
      try {
        const dataset = withPlaces(generateDataset(options), options.seed);
        const handle = await openDataset(dataset, dir, runs.accessFile);
        for (const spec of drawn) await checkQuery(handle, dataset, spec);
      } finally {
        removeDir(dir);
      }
    }),
    { numRuns: runs.runs, seed: Number(process.env.FC_SEED ?? runs.seed) },
  );
}

/**
 * For random datasets and a `rebuild` of each, a cursor of a query's first page (one record) taken
 * before the rebuild resumes, after it, right after that record's key (decision: pagination).
 */
export async function checkCursorsAcrossRebuild(
  specs: fc.Arbitrary<QuerySpec[]>,
  rebuild: (before: Dataset) => Dataset,
  runs: PropertyRuns & { pageAfter: number },
): Promise<void> {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(datasetArb, specs, async (options, drawn) => {
      const dir = path.join(runs.root, `rebuild-${run++}`);
      try {
        const before = withPlaces(generateDataset(options), options.seed);
        const after = rebuild(before);
        const first = await openDataset(before, path.join(dir, "before"), runs.accessFile);
        const second = await openDataset(after, path.join(dir, "after"), runs.accessFile);
        for (const spec of drawn) {
          const query = spec.query(contextOf(before));
          const url = urlOf(query, 1, null);
          const page = await getJson(first, url);
          if (!page.pagination.nextCursor) continue;
          const pastLast = expectedRecords(contextOf(after), query).filter((r) =>
            isPastKey(query, r, page.data[0], { before, after }),
          );
          const next = await getJson(second, urlOf(query, runs.pageAfter, page.pagination.nextCursor));
          expect(next.data, url).toEqual(pastLast.slice(0, runs.pageAfter));
        }
      } finally {
        removeDir(dir);
      }
    }),
    { numRuns: runs.runs, seed: Number(process.env.FC_SEED ?? runs.seed) },
  );
}
