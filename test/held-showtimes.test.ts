/**
 * Showtimes held as validation workers sent them (build/validate/held-showtimes.ts), in a build with
 * markets: invisible in what the build writes and reports. A multi-market folder byte for byte as
 * validation on one thread makes it, the same --check counts and the same problems in the same order;
 * held entries field by field as one thread's; a market's taken once, in order, its slices let go.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Market } from "../api/_core/format/layout/market-rules.js";
import { loadSources } from "../build/load/load-sources.js";
import type { Problem } from "../build/report/problems.js";
import { checkData, runBuild } from "../build/run-build.js";
import { Interner, type ValidRecords } from "../build/validate/entries.js";
import { HeldShowtimes } from "../build/validate/held-showtimes.js";
import { validateRecords } from "../build/validate/validate-records.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { hashTree, makeTempDir, removeDir, toNdjson, validRecords, writeFiles } from "./helpers/build-helpers.js";
import { generateDataset, writeDataset } from "./helpers/dataset.js";
import { spreadCountries, writeMarkets } from "./helpers/markets.js";
import { expectSameShowtimes, THREADS } from "./helpers/validation-paths.js";

const MARKETS: Market[] = [
  { id: "gb", name: "United Kingdom", countries: ["GB"] },
  { id: "dach", name: "Germany, Austria, Switzerland", countries: ["DE", "AT"] },
  { id: "fr", name: "France", countries: ["FR"] },
  { id: "es", name: "Spain", countries: ["ES"] },
];

let work: string;
let dataDir: string;
let sources: Array<Record<string, unknown>>;
beforeAll(() => {
  work = makeTempDir("held-showtimes");
  const generated = spreadCountries(generateDataset({ seed: 7, showtimes: 400, cinemas: 7, films: 5 }), [
    "GB",
    "DE",
    "FR",
    "AT",
  ]);
  sources = generated.showtimes as unknown as Array<Record<string, unknown>>;
  dataDir = path.join(work, "data");
  writeDataset(dataDir, generated);
  writeMarkets(dataDir, MARKETS);
});
afterAll(() => removeDir(work));

async function validate(dir: string, workers: number, holdShowtimes: boolean) {
  const problems: Problem[] = [];
  const loaded = await loadSources(dir, problems);
  const records = await validateRecords(loaded, { workers, holdShowtimes }, problems, new Interner());
  expect(problems).toEqual([]);
  return records;
}

/** Builds `dir` into `out`, validating on `validateWorkers` threads (0: this one); fails unless they ran. */
async function build(dir: string, validateWorkers: number, out: string) {
  let used = -1;
  const output = createDiskWriter(out);
  const onValidationWorkers = (n: number) => (used = n);
  const result = await runBuild({
    dataDir: dir,
    output,
    gzipLevel: 1,
    gzipWorkers: 0,
    validateWorkers,
    onValidationWorkers,
  });
  expect(used, "validation ran on the workers asked for").toBe(validateWorkers);
  return result;
}

describe("a build with markets, its showtimes held", () => {
  test("writes every market's folder byte for byte as validation on one thread does", async () => {
    const [inline, threaded] = [path.join(work, "out-0"), path.join(work, `out-${THREADS}`)];
    const one = await build(dataDir, 0, inline);
    const two = await build(dataDir, THREADS, threaded);
    expect(one.ok && two.ok).toBe(true);
    expect(hashTree(threaded)).toEqual(hashTree(inline));
    expect(Object.keys(hashTree(inline))).toContain("es/manifest.json");
  });

  test("--check counts and reports the same", async () => {
    const run = (validateWorkers: number) => checkData({ dataDir, validateWorkers });
    const [one, two] = [await run(0), await run(THREADS)];
    expect(one.ok).toBe(true);
    expect(two).toEqual(one);
  });

  test("reports the same problems in the same order: duplicate ids, dangling references, outside markets", async () => {
    const { showtimes, cinemas, films, attributes } = validRecords();
    const st = (id: string, patch: Record<string, unknown> = {}) => ({
      ...showtimes,
      id,
      attributeIds: [attributes.id],
      ...patch,
    });
    const dir = path.join(work, "invalid");
    writeFiles(dir, {
      "cinemas/a.json": JSON.stringify([
        cinemas,
        { ...cinemas, id: "cin-us", location: { ...cinemas.location, countryCode: "US" } },
      ]),
      "films/f.ndjson": toNdjson([films]),
      "attributes/x.json": JSON.stringify([attributes]),
      "showtimes/1.ndjson": toNdjson([st("s1"), st("s2", { filmId: "no-film" }), st("s3", { startsAt: "x" })]),
      "showtimes/2.json": JSON.stringify([st("s1"), st("s4", { cinemaId: "nowhere" }), st("s3")]),
    });
    writeMarkets(dir, [{ id: "gb", name: "United Kingdom", countries: ["GB"] }]);
    const problemsOf = async (workers: number) => {
      const result = await build(dir, workers, path.join(work, `invalid-out-${workers}`));
      if (result.ok) throw new Error("the build must fail");
      return result.problems;
    };
    const one = await problemsOf(0);
    const where = (p: Problem) => [p.code, path.relative(dir, p.file), p.line ?? p.index ?? null, p.path];
    // The invalid s3 reuses the id of a valid showtime after it: it is the one reported.
    expect(one.map(where)).toEqual([
      ["invalid_value", "showtimes/1.ndjson", 3, "startsAt"],
      ["duplicate_id", "showtimes/2.json", 0, "id"],
      ["duplicate_id", "showtimes/1.ndjson", 3, "id"],
      ["dangling_reference", "showtimes/1.ndjson", 2, "filmId"],
      ["dangling_reference", "showtimes/2.json", 1, "cinemaId"],
      ["cinema_outside_markets", "cinemas/a.json", 1, "location.countryCode"],
    ]);
    expect(await problemsOf(THREADS)).toEqual(one);
  });

  test("a markets.json that fails leaves one market, its showtimes all taken: the same problems", async () => {
    const dir = path.join(work, "bad-markets");
    writeDataset(dir, generateDataset({ seed: 3, showtimes: 40, cinemas: 2, films: 2 }));
    writeMarkets(dir, [{ id: "", name: "Nameless", countries: ["GB"] }]);
    const problemsOf = async (workers: number) => {
      const result = await build(dir, workers, path.join(work, `bad-markets-out-${workers}`));
      if (result.ok) throw new Error("the build must fail");
      return result.problems;
    };
    const one = await problemsOf(0);
    expect(one.map((p) => p.code)).toEqual(["invalid_market"]);
    expect(await problemsOf(THREADS)).toEqual(one);
  });
});

describe("held showtimes", () => {
  let inline: ValidRecords;
  let held: HeldShowtimes;
  beforeAll(async () => {
    inline = await validate(dataDir, 0, true);
    const threaded = await validate(dataDir, THREADS, true);
    expect(threaded.showtimes).toEqual([]);
    expect(threaded.held).toBeInstanceOf(HeldShowtimes);
    held = threaded.held as HeldShowtimes;
  });

  test("only from workers: on one thread showtimes are entries as ever", () => {
    expect(inline.held).toBeUndefined();
    expect(held.length).toBe(sources.length);
  });

  test("read in order, each entry field by field as one thread's, as often as asked", () => {
    expectSameShowtimes(inline, { ...inline, showtimes: [...held] }, sources);
    expect([...held]).toEqual(inline.showtimes);
  });

  test("taken market by market: the entries at the positions, once each, in order; then let go", () => {
    const odd = inline.showtimes.flatMap((_, i) => (i % 2 === 1 ? [i] : []));
    const even = inline.showtimes.flatMap((_, i) => (i % 2 === 0 ? [i] : []));
    expect(() => held.take([3, 1])).toThrow("position 1 out of order");
    expect(() => held.take([held.length])).toThrow(`position ${held.length} out of order or range`);
    expect(held.take(odd)).toEqual(odd.map((i) => inline.showtimes[i]));
    expect(() => held.take([1])).toThrow("position 1 taken twice");
    // Every slice still has an even position untaken: all can still be read.
    expect([...held]).toHaveLength(held.length);
    expect(held.take(even)).toEqual(even.map((i) => inline.showtimes[i]));
    // Every slice taken whole is let go: nothing is left to read.
    expect(() => [...held]).toThrow("read after some were taken");
  });
});
