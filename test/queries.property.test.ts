import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LIST_TABLES } from "../api/_core/endpoints/parse-request.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import type { Dataset } from "./helpers/dataset.js";
import { writeAccessFile } from "./helpers/http-setup.js";
import { type ListResource, ORACLES, oracleGaps, queryArb } from "./helpers/query-oracle.js";
import { checkCursorsAcrossRebuild, checkRandomQueries, located } from "./helpers/query-walk.js";
import { scaled } from "./helpers/deadlines.js";

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

test("every combination of filters pages through exactly filter-then-sort of the source", {
  timeout: scaled(240_000),
}, async () => {
  const specs = fc.array(querySpecArb, { minLength: 6, maxLength: 14 });
  await checkRandomQueries(specs, { root, accessFile, runs: 12, seed: 20_261_125 });
});

/** The rebuild drops every third showtime and moves every fourth cinema a little. */
function rebuilt(before: Dataset): Dataset {
  return {
    ...before,
    showtimes: before.showtimes.filter((_, i) => i % 3 !== 0),
    cinemas: before.cinemas.map((c, i) => {
      const at = located(c);
      return i % 4 === 0 && at
        ? { ...c, location: { ...c.location, latitude: Number((at.latitude + 0.01).toFixed(5)) } }
        : c;
    }),
  };
}

test("a cursor from before a rebuild resumes right after its record in the rebuilt snapshot", {
  timeout: scaled(240_000),
}, async () => {
  const specs = fc.array(querySpecArb, { minLength: 4, maxLength: 8 });
  await checkCursorsAcrossRebuild(specs, rebuilt, { root, accessFile, runs: 4, seed: 20_261_126, pageAfter: 100 });
});
