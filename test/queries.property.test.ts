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
import { LIST_TABLES } from "../api/_core/endpoints/parse-request.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { type Dataset, generateDataset } from "./helpers/dataset.js";
import { writeAccessFile } from "./helpers/http-setup.js";
import {
  contextOf,
  expectedRecords,
  type ListResource,
  ORACLES,
  oracleGaps,
  queryArb,
  urlOf,
} from "./helpers/query-oracle.js";
import { checkQuery, datasetArb, getJson, isPastKey, located, openDataset, withPlaces } from "./helpers/query-walk.js";

let root: string;
let accessFile: string;
beforeAll(() => {
  root = makeTempDir("queries");
  accessFile = writeAccessFile(root);
});
afterAll(() => removeDir(root));

// ---- Datasets with places, and queries over them. ----

/** Lists the oracle covers, showtimes twice as often: most parameters are theirs. */
const RESOURCES: ListResource[] = ["showtimes", "showtimes", "cinemas", "films"];

const querySpecArb = fc.constantFrom(...RESOURCES).chain((resource) =>
  fc.record({
    query: queryArb(resource, LIST_TABLES[resource]),
    limits: fc.array(fc.constantFrom(1, 2, 5, 25, 100), { minLength: 1, maxLength: 3 }),
  }),
);

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
        const handle = await openDataset(dataset, dir, accessFile);
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
        const first = await openDataset(before, path.join(dir, "before"), accessFile);
        const second = await openDataset(after, path.join(dir, "after"), accessFile);
        for (const spec of specs) {
          const query = spec.query(contextOf(before));
          const url = urlOf(query, 1, null);
          const page = await getJson(first, url);
          if (!page.pagination.nextCursor) continue;
          // Resumes after the last record's sort key, as the rebuilt data orders it.
          const pastLast = expectedRecords(contextOf(after), query).filter((r) =>
            isPastKey(query, r, page.data[0], { before, after }),
          );
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
