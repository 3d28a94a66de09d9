/**
 * The query parameters apps use (decision: query parameters), against a brute-force oracle
 * (helpers/query-oracle.ts) that has an entry for every row of every list's parameter table: for
 * random datasets (cinemas scattered over a few cities, some without coordinates), random
 * combinations of every parameter and changing limits, following nextCursor to the end yields
 * exactly filter-then-sort of the source records, with the oracle's freshness on every page; and a
 * cursor taken before a rebuild resumes after its record in the rebuilt snapshot. A parameter added
 * to a table without an oracle entry fails the first test here.
 *
 * Reproducible by default; FC_SEED=<n> explores another part of the space.
 */
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fileAccess } from "../api/_core/gate/access.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { createHandler, type Handler } from "../api/_core/handle-request.js";
import { LIST_TABLES } from "../api/_core/endpoints/parse-request.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import {
  type AnyRecord,
  buildDataset,
  type Cinema,
  compareInstants,
  type Dataset,
  foldFreshness,
  generateDataset,
  snapshotFreshness,
} from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";
import {
  CITIES,
  contextOf,
  distanceTo,
  expectedRecords,
  type ListResource,
  type OracleContext,
  type OracleQuery,
  ORACLES,
  oracleGaps,
  type Place,
  queryArb,
  urlOf,
} from "./helpers/query-oracle.js";

let root: string;
let accessFile: string;
beforeAll(() => {
  root = makeTempDir("queries");
  accessFile = writeAccessFile(root);
});
afterAll(() => removeDir(root));

/** The records a page's freshness covers, in the order they are folded: each record, then what it embeds. */
function provenanceRecords(page: Array<Record<string, unknown>>): AnyRecord[] {
  return page.flatMap((r) => [r, r.film, r.cinema].filter((x) => x !== undefined) as AnyRecord[]);
}

function located(cinema: Cinema): { latitude: number; longitude: number } | undefined {
  const { latitude, longitude } = cinema.location as { latitude?: number; longitude?: number };
  return latitude === undefined || longitude === undefined ? undefined : { latitude, longitude };
}

// ---- Datasets with places, and queries over them. ----

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

/** Lists the oracle covers, showtimes twice as often: most parameters are theirs. */
const RESOURCES: ListResource[] = ["showtimes", "showtimes", "cinemas", "films"];

const querySpecArb = fc.constantFrom(...RESOURCES).chain((resource) =>
  fc.record({
    query: queryArb(resource, LIST_TABLES[resource]),
    limits: fc.array(fc.constantFrom(1, 2, 5, 25, 100), { minLength: 1, maxLength: 3 }),
  }),
);

type QuerySpec = { query: (ctx: OracleContext) => OracleQuery; limits: number[] };

async function getJson(handle: Handler, url: string) {
  const res = await handle({ method: "GET", url, headers: { authorization: `Bearer ${KEYS.bulk}` } });
  expect(res.status, `${url}: ${res.body.toString()}`).toBe(200);
  return JSON.parse(res.body.toString("utf8"));
}

/** Pages through one query to its end, checking every page against the oracle. */
async function checkQuery(handle: Handler, dataset: Dataset, spec: QuerySpec): Promise<void> {
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

describe("the oracle", () => {
  test.each(Object.keys(ORACLES) as ListResource[])("has an entry for every row of the %s table", (resource) => {
    expect(oracleGaps(LIST_TABLES[resource], ORACLES[resource])).toEqual([]);
  });

  test("names a filter it does not know, and one whose entry does not say what it keeps", () => {
    const language = { key: "language", select: () => ({}) };
    expect(oracleGaps([...LIST_TABLES.showtimes, language], ORACLES.showtimes)).toEqual(["language"]);
    const halfDone = { ...ORACLES.showtimes, language: { draw: fc.constant(() => "de"), wire: () => ["language=de"] } };
    expect(oracleGaps([...LIST_TABLES.showtimes, language], halfDone)).toEqual(["language"]);
  });
});

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
          const query = spec.query(contextOf(before));
          const url = urlOf(query, 1, null);
          const page = await getJson(first, url);
          if (!page.pagination.nextCursor) continue;
          const last = page.data[0];
          // Resumes after the last record's sort key, as the rebuilt data orders it.
          const near = query.given.near as Place | undefined;
          const pastLast = expectedRecords(contextOf(after), query).filter((r) => {
            if (query.resource === "showtimes") {
              const order = compareInstants(r.startsAt as string, last.startsAt);
              return order > 0 || (order === 0 && (r.id as string) > last.id);
            }
            if (!near) return (r.id as string) > last.id;
            // The cursor holds the exact distance; the page shows it rounded, so compare on the source's distance.
            const exact = distanceTo(before.cinemas.find((c) => c.id === last.id)!, near)!;
            const mine = distanceTo(after.cinemas.find((c) => c.id === r.id)!, near)!;
            return mine > exact || (mine === exact && (r.id as string) > last.id);
          });
          const next = await getJson(second, urlOf(query, 100, page.pagination.nextCursor));
          expect(next.data, url).toEqual(pastLast.slice(0, 100));
        }
      } finally {
        removeDir(dir);
      }
    }),
    { numRuns: 4, seed: Number(process.env.FC_SEED ?? 20_261_126) },
  );
}, 240_000);
