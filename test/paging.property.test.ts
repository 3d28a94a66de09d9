/**
 * The paging equivalence (spec §2.7 and §4.1; decisions: pagination, ordering, filters, freshness),
 * against a brute-force oracle: for random datasets, filters and changing limits, following
 * nextCursor until it is null yields exactly filter-then-sort of the source records, and each
 * page's freshness is the oracle's fold over that page's records. Runs the in-process core, so
 * precomputed pages (limit 25 at a page boundary) and composed ones mix.
 *
 * Reproducible by default; FC_SEED=<n> explores another part of the space.
 */
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { fileAccess } from "../api/_core/gate/access.js";
import { createHandler, type CoreResponse } from "../api/_core/handle-request.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import {
  buildDataset,
  expectedList,
  foldFreshness,
  formatInstant,
  generateDataset,
  SHOWS_FROM,
  snapshotFreshness,
  type Dataset,
  type ListFilters,
  type Resource,
} from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";

/** Each run builds a snapshot (most of the time taken); queries on it are cheap, so each run asks many. */
const NUM_RUNS = 15;
let root: string;
let accessFile: string;

beforeAll(() => {
  root = makeTempDir("paging");
  accessFile = writeAccessFile(root);
});
afterAll(() => removeDir(root));

/** Filters by index into the dataset's showtimes, so most of them select something. */
type FilterSpec =
  | { kind: "none" }
  | { kind: "cinema" | "film" | "pair"; index: number }
  | { kind: "both"; cinema: number; film: number }
  | { kind: "unknown" };

type StartsAfterSpec =
  | { kind: "data"; index: number }
  | { kind: "text"; text: string }
  | { kind: "random"; seconds: number; fraction: string; offset: number };

interface Query {
  resource: Resource;
  filter: FilterSpec;
  startsAfter?: StartsAfterSpec;
  /** Limits for successive pages, cycled; undefined omits the parameter (25). */
  limits: Array<number | undefined>;
}

// Omitted or 25 half the time: the precomputed pages must be reached, not only composed ones.
const limitArb = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(undefined, 25) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 100 }) },
);
const limitsArb = fc.array(limitArb, { minLength: 1, maxLength: 6 });
const filterArb: fc.Arbitrary<FilterSpec> = fc.oneof(
  fc.constant({ kind: "none" as const }),
  fc.record({ kind: fc.constantFrom("cinema" as const, "film" as const, "pair" as const), index: fc.nat() }),
  fc.record({ kind: fc.constant("both" as const), cinema: fc.nat(), film: fc.nat() }),
  fc.constant({ kind: "unknown" as const }),
);
const startsAfterArb: fc.Arbitrary<StartsAfterSpec | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.record({ kind: fc.constant("data" as const), index: fc.nat() }),
      fc.record({
        kind: fc.constant("random" as const),
        seconds: fc.integer({ min: -7200, max: 30 * 3600 }),
        fraction: fc.constantFrom("", "5", "123456789", "1234567891", "999"),
        offset: fc.constantFrom(0, 60, -300, 330, 840, -720),
      }),
      // The ends of the date-time range: every showtime is after the first, none after the second.
      fc.record({
        kind: fc.constant("text" as const),
        text: fc.constantFrom("0000-01-01T00:00+23:59", "9999-12-31T23:59:59.999999999-23:59"),
      }),
    ),
  },
);
const queryArb: fc.Arbitrary<Query> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      resource: fc.constant("showtimes" as const),
      filter: filterArb,
      startsAfter: startsAfterArb,
      limits: limitsArb,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      resource: fc.constantFrom("cinemas" as const, "films" as const, "attributes" as const),
      filter: fc.constant({ kind: "none" as const }),
      limits: limitsArb,
    }),
  },
);
const datasetArb = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  // Mostly several default pages' worth, sometimes tiny or empty.
  showtimes: fc.oneof(
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 5 }) },
    { weight: 4, arbitrary: fc.integer({ min: 30, max: 120 }) },
  ),
  cinemas: fc.integer({ min: 0, max: 4 }),
  films: fc.integer({ min: 0, max: 4 }),
});

/** Turns a query's indexes into the filters of one dataset. */
function resolveFilters(dataset: Dataset, query: Query): ListFilters {
  const { showtimes } = dataset;
  const at = (i: number) => showtimes[i % showtimes.length];
  const filters: ListFilters = {};
  const f = query.filter;
  if (f.kind === "unknown") filters.cinemaId = "no-such-cinema";
  if ((f.kind === "cinema" || f.kind === "pair") && at(f.index)) filters.cinemaId = at(f.index)!.cinemaId;
  if ((f.kind === "film" || f.kind === "pair") && at(f.index)) filters.filmId = at(f.index)!.filmId;
  if (f.kind === "both" && showtimes.length > 0)
    Object.assign(filters, { cinemaId: at(f.cinema)!.cinemaId, filmId: at(f.film)!.filmId });
  const s = query.startsAfter;
  if (s?.kind === "data" && showtimes.length > 0) filters.startsAfter = at(s.index)!.startsAt;
  else if (s?.kind === "data") filters.startsAfter = formatInstant(SHOWS_FROM, "", 0);
  else if (s?.kind === "text") filters.startsAfter = s.text;
  else if (s?.kind === "random") filters.startsAfter = formatInstant(SHOWS_FROM + s.seconds, s.fraction, s.offset);
  return filters;
}

function urlOf(resource: Resource, filters: ListFilters, limit: number | undefined, cursor: string | null): string {
  const params = Object.entries({
    ...filters,
    ...(limit === undefined ? {} : { limit: String(limit) }),
    ...(cursor ? { cursor } : {}),
  });
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
  return `/v1/${resource}${params.length ? "?" : ""}${query}`;
}

type Handle = (request: {
  method: string;
  url: string;
  headers: Record<string, string>;
}) => CoreResponse | Promise<CoreResponse>;

/** Pages through one query, checking every page against the oracle. */
async function checkQuery(handle: Handle, dataset: Dataset, query: Query): Promise<void> {
  const filters = resolveFilters(dataset, query);
  const expected = expectedList(dataset, query.resource, filters);
  const fallback = snapshotFreshness(dataset);
  let cursor: string | null = null;
  let served = 0;
  for (let page = 0; page === 0 || cursor !== null; page++) {
    const limit = query.limits[page % query.limits.length];
    const url = urlOf(query.resource, filters, limit, cursor);
    const res = await handle({ method: "GET", url, headers: { authorization: `Bearer ${KEYS.bulk}` } });
    expect(res.status, `${url}: ${res.body.toString()}`).toBe(200);
    const body = JSON.parse(res.body.toString("utf8"));
    const want = expected.slice(served, served + (limit ?? 25));
    expect(body.data, url).toEqual(want);
    expect(body.freshness, `freshness of ${url}`).toEqual(foldFreshness(want, fallback));
    served += want.length;
    const hasMore = served < expected.length;
    expect(body.pagination.hasMore, url).toBe(hasMore);
    cursor = body.pagination.nextCursor;
    if (hasMore) expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    else expect(cursor).toBeNull();
  }
  expect(served).toBe(expected.length);
}

const smallBlocksArb = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  showtimes: fc.integer({ min: 300, max: 900 }),
  cinemas: fc.integer({ min: 0, max: 1 }),
  films: fc.integer({ min: 0, max: 1 }),
});
const layoutArb = fc.record({
  targetBytes: fc.constantFrom(1, 200, 1000),
  restartInterval: fc.integer({ min: 1, max: 5 }),
  deflate: fc.boolean(),
});
const showtimeQueryArb: fc.Arbitrary<Query> = fc.record({
  resource: fc.constant("showtimes" as const),
  filter: filterArb.filter((f) => f.kind !== "unknown"),
  startsAfter: startsAfterArb,
  limits: fc.array(fc.constantFrom(undefined, 1, 7, 64, 100), { minLength: 1, maxLength: 3 }),
});

test(
  "with blocks of a few records, every view's pages and searches cross block, restart and chunk " +
    "boundaries rightly",
  async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        smallBlocksArb,
        layoutArb,
        fc.array(showtimeQueryArb, { minLength: 6, maxLength: 10 }),
        async (options, layout, queries) => {
          const dir = path.join(root, `small-blocks-${run++}`);
          try {
            const dataset = generateDataset(options);
            const snapshotDir = path.join(dir, "snapshot");
            await buildDataset(dataset, dir, snapshotDir, "data", layout);
            const handle = createHandler({
              snapshots: new SnapshotSource(snapshotDir),
              access: fileAccess(accessFile),
              now: () => TEST_NOW,
            });
            for (const query of queries) await checkQuery(handle, dataset, query);
          } finally {
            removeDir(dir);
          }
        },
      ),
      { numRuns: 5, seed: Number(process.env.FC_SEED ?? 20_261_124) },
    );
  },
);

test("paging with any limits and filters equals filter-then-sort of the source", async () => {
  let run = 0;
  // How pages were produced: the property means little unless both paths are exercised.
  const paths = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(datasetArb, fc.array(queryArb, { minLength: 4, maxLength: 14 }), async (options, queries) => {
      const dir = path.join(root, `run-${run++}`);
      try {
        const dataset = generateDataset(options);
        const snapshotDir = path.join(dir, "snapshot");
        await buildDataset(dataset, dir, snapshotDir);
        const handle = createHandler({
          snapshots: new SnapshotSource(snapshotDir),
          access: fileAccess(accessFile),
          now: () => TEST_NOW,
          onLog: (entry) => paths.set(entry.cache ?? "none", (paths.get(entry.cache ?? "none") ?? 0) + 1),
        });
        for (const query of queries) await checkQuery(handle, dataset, query);
      } finally {
        removeDir(dir);
      }
    }),
    { numRuns: NUM_RUNS, seed: Number(process.env.FC_SEED ?? 20_261_123) },
  );
  expect(paths.get("precomputed"), "pages served precomputed").toBeGreaterThan(10);
  expect(paths.get("composed"), "pages composed").toBeGreaterThan(10);
});
