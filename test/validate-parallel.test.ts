/**
 * Validation on worker threads (large inputs) must be invisible: the same entries, snapshot bytes
 * and problems, in the same order, as validation on the main thread, for the golden fixture and for
 * random records made from the shape table (every optional field present or not), so a row added
 * to the table that the workers' wire format forgets fails here.
 */
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDiskWriter } from "../build/write/output-writer.js";
import type { Problem } from "../build/report/problems.js";
import { runBuild } from "../build/run-build.js";
import {
  GOLDEN_FIXTURE,
  hashTree,
  makeTempDir,
  removeDir,
  toNdjson,
  validRecords,
  writeFiles,
} from "./helpers/build-helpers.js";
import { generateDataset, writeDataset } from "./helpers/dataset.js";
import { datasetOf, showtimesArb } from "./helpers/showtime-records.js";
import { buildBothWays, expectSameShowtimes, validateBothWays } from "./helpers/validation-paths.js";

let work: string;
beforeAll(() => {
  work = makeTempDir("validate-parallel");
});
afterAll(() => removeDir(work));

async function build(dataDir: string, validateWorkers: number) {
  const out = path.join(work, `out-${path.basename(dataDir)}-${validateWorkers}`);
  let workers = -1;
  const result = await runBuild({
    dataDir,
    output: createDiskWriter(out),
    validateWorkers,
    onValidationWorkers: (n) => (workers = n),
  });
  return { result, out, workers };
}

describe("validation on worker threads", () => {
  test("gives a byte-identical snapshot (golden fixture, 1 to 3 workers)", async () => {
    const inline = await build(GOLDEN_FIXTURE, 0);
    expect(inline.result.ok).toBe(true);
    for (const workers of [1, 2, 3]) {
      const threaded = await build(GOLDEN_FIXTURE, workers);
      expect(threaded.result.ok).toBe(true);
      expect(hashTree(threaded.out), `${workers} workers`).toEqual(hashTree(inline.out));
      expect(Object.keys(hashTree(threaded.out))).toContain("records.blocks");
      // The records really came from the workers, not from a quiet fallback to this thread.
      expect(threaded.workers, "validation ran on the workers asked for").toBe(workers);
    }
  });

  test(
    "gives the same entries, field by field, and the same snapshot for random records made from the " + "shape table",
    async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(showtimesArb(24), async (showtimes) => {
          const dir = path.join(work, `random-${run++}`);
          writeDataset(path.join(dir, "data"), datasetOf(showtimes));
          const { inline, threaded } = await validateBothWays(path.join(dir, "data"));
          expectSameShowtimes(inline, threaded, showtimes);
          await buildBothWays(path.join(dir, "data"), dir);
        }),
        { numRuns: 6 },
      );
    },
  );

  test("gives the same entries for files of more records than a worker sends at once", async () => {
    // 17,000 showtimes a file (NDJSON, a JSON array): just past a worker's slice of 16,384 (validate-worker.ts SLICE).
    const generated = generateDataset({ seed: 5, showtimes: 34_000 });
    const dir = path.join(work, "sliced");
    writeDataset(dir, generated);
    const { inline, threaded } = await validateBothWays(dir);
    expectSameShowtimes(inline, threaded, generated.showtimes as unknown as Array<Record<string, unknown>>);
  });

  test("reports the same problems in the same order, across files and workers", async () => {
    const { showtimes, cinemas, films, attributes } = validRecords();
    const st = (id: string, patch: Record<string, unknown> = {}) => ({
      ...showtimes,
      id,
      attributeIds: ["format-2d"],
      ...patch,
    });
    const dataDir = path.join(work, "invalid");
    writeFiles(dataDir, {
      "cinemas/a.json": JSON.stringify([cinemas, { ...cinemas, name: "" }]),
      "films/f.ndjson": toNdjson([films, { ...films, id: "film-2", runtime: 1 }]),
      "attributes/x.json": JSON.stringify([attributes]),
      "showtimes/1.ndjson": `${toNdjson([st("s1"), st("s2", { startsAt: "2023-02-29T10:00Z" })])}{not json\n`,
      "showtimes/2.ndjson": toNdjson([st("s1"), st("s3", { cinemaId: "nowhere" })]),
      "showtimes/3.json": "{}",
      "showtimes/4.ndjson": toNdjson([st("s4", { attributeIds: ["format-2d", "format-2d"] }), 42]),
    });
    const inline = await build(dataDir, 0);
    const threaded = await build(dataDir, 2);
    expect(inline.result.ok).toBe(false);
    if (inline.result.ok || threaded.result.ok) throw new Error("both builds must fail");
    // Validation's problems in file order, then the link stage's (duplicate ids, a dangling cinema),
    // including those of records that failed validation (the nameless cinema reuses a valid one's id).
    const where = (p: Problem) => [p.code, path.relative(dataDir, p.file), p.line ?? p.index ?? null, p.path];
    expect(inline.result.problems.map(where)).toEqual([
      ["invalid_value", "cinemas/a.json", 1, "name"],
      ["unknown_field", "films/f.ndjson", 2, "runtime"],
      ["invalid_value", "showtimes/1.ndjson", 2, "startsAt"],
      ["invalid_json", "showtimes/1.ndjson", 3, ""],
      ["not_an_array", "showtimes/3.json", null, ""],
      ["invalid_value", "showtimes/4.ndjson", 1, "attributeIds"],
      ["not_an_object", "showtimes/4.ndjson", 2, ""],
      ["duplicate_id", "showtimes/2.ndjson", 1, "id"],
      ["duplicate_id", "cinemas/a.json", 1, "id"],
      ["dangling_reference", "showtimes/2.ndjson", 2, "cinemaId"],
    ]);
    expect(threaded.result.problems).toEqual(inline.result.problems);
  });
});
