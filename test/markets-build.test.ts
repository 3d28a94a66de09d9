/**
 * A build with markets (decision: markets): markets.json read and checked, each problem pointing at
 * its file and place; one snapshot per market, each opened by the server's reader and holding
 * exactly its cinemas, their showtimes, the films showing there and every attribute, the index
 * saying what each holds (GET /markets); the report
 * per market; history carried market by market; --check writing nothing; a killed swap of a
 * multi-market folder undone; the generator's world dataset built whole.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { summarizeSnapshot } from "../api/_core/compose/compose-markets.js";
import { LIST_RESOURCES } from "../api/_core/format/layout/manifest.js";
import type { Market } from "../api/_core/format/layout/market-rules.js";
import { SnapshotError } from "../api/_core/format/primitives/errors.js";
import { DATA_FILES } from "../api/_core/format/primitives/files.js";
import { isMarketsFolder, openMarketsFolder, readMarketsIndex } from "../api/_core/format/read/markets-folder.js";
import { readManifest } from "../api/_core/format/read/snapshot.js";
import { previousSnapshotOf } from "../build/cli-options.js";
import { formatBuildReport } from "../build/report/build-report.js";
import { type BuildOptions, checkData, runBuild } from "../build/run-build.js";
import { buildOrder } from "../build/markets/each-market.js";
import type { PartitionedRecords } from "../build/markets/partition-markets.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { WORLD_MARKETS } from "../scripts/generate/world-markets.js";
import { writeDataset as writeGenerated } from "../scripts/generate/write-dataset.js";
import {
  makeTempDir,
  removeDir,
  ROOT,
  runBuildCli,
  runTsxScript,
  toNdjson,
  validRecords,
  writeFiles,
} from "./helpers/build-helpers.js";
import { type Dataset, expectedList, generateDataset, snapshotFreshness, writeDataset } from "./helpers/dataset.js";
import { marketDataset, servedRecords, spreadCountries, writeMarkets } from "./helpers/markets.js";

let work: string;
let dataset: Dataset;
let out: string;
let built: Awaited<ReturnType<typeof buildMarkets>>;

const MARKETS: Market[] = [
  { id: "gb", name: "United Kingdom", countries: ["GB"] },
  { id: "dach", name: "Germany, Austria, Switzerland", countries: ["DE", "AT", "CH"] },
  { id: "fr", name: "France", countries: ["FR"] },
  { id: "ie", name: "Ireland", countries: ["IE"] },
  { id: "es", name: "Spain", countries: ["ES"] },
  { id: "pt", name: "Portugal", countries: ["PT"] },
];
const UNSHOWN = { id: "film-unshown", title: "Never Shown", provenance: { ...validRecords().films.provenance } };

let labels = 0;
/** Writes `data` with `markets` (none: no markets.json) into a new data folder. */
function dataFolder(data: Dataset, markets?: unknown): string {
  const dir = path.join(work, `data-${labels++}`);
  writeDataset(dir, data);
  if (markets !== undefined) writeMarkets(dir, markets);
  return dir;
}

async function buildMarkets(data: Dataset, markets: unknown, into: string, options: Partial<BuildOptions> = {}) {
  const result = await runBuild({
    dataDir: dataFolder(data, markets),
    output: createDiskWriter(into),
    gzipLevel: 1,
    gzipWorkers: 0,
    validateWorkers: 0,
    ...options,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 3)));
  if (!("markets" in result)) throw new Error("a multi-market build was meant");
  return result;
}

beforeAll(async () => {
  work = makeTempDir("markets");
  const generated = generateDataset({ seed: 11, showtimes: 300, cinemas: 6, films: 4 });
  dataset = spreadCountries({ ...generated, films: [...generated.films, UNSHOWN] }, ["GB", "DE", "FR", "AT", "IE"]);
  out = path.join(work, "out");
  built = await buildMarkets(dataset, MARKETS, out);
});
afterAll(() => removeDir(work));

describe("a multi-market build", () => {
  test("writes a folder per market and the index, in markets.json's order", () => {
    expect(readdirSync(out).sort()).toEqual([...MARKETS.map((m) => m.id), "markets.json"].sort());
    const index = readMarketsIndex(out);
    expect(index.markets.map(({ snapshotId: _, summary: __, ...market }) => market)).toEqual(MARKETS);
    expect(index.markets.map((m) => m.snapshotId)).toEqual(built.manifests.map((m) => m.snapshotId));
  });

  test("every market opens as a snapshot holding its cinemas, their showtimes, its films, every attribute", () => {
    const opened = openMarketsFolder(out);
    try {
      for (const { market, snapshot } of opened.markets) {
        const own = marketDataset(dataset, market);
        for (const resource of LIST_RESOURCES)
          expect(servedRecords(snapshot, resource), `${market.id} ${resource}`).toEqual(expectedList(own, resource));
        expect(snapshot.manifest.market).toEqual(MARKETS.find((m) => m.id === market.id));
        // Its freshness is its own records' (decision: freshness).
        expect(snapshot.manifest.freshness).toEqual(snapshotFreshness(own));
        // The index says what it holds (GET /markets), as a snapshot without markets says it of itself.
        expect(market.summary).toEqual(summarizeSnapshot(snapshot));
        const { cinemas, films, showtimes } = own;
        expect(market.summary!.counts).toEqual({
          cinemas: cinemas.length,
          films: films.length,
          showtimes: showtimes.length,
        });
      }
    } finally {
      opened.close();
    }
  });

  test("the report counts each market, names an empty one and the films showing in none", () => {
    const report = formatBuildReport(built.report);
    const gb = marketDataset(dataset, MARKETS[0]!);
    expect(report).toContain(
      `market gb: ${gb.cinemas.length} cinemas, ${gb.films.length} films, ${gb.showtimes.length} showtimes; ` +
        "history: begun afresh at generation 0 (no --previous snapshot)\n",
    );
    expect(report).toContain("market es: 0 cinemas, 0 films, 0 showtimes;");
    expect(report).toContain("notice: market es holds no cinema (none in ES): its snapshot is empty\n");
    expect(report).toContain("films showing in no market: 1, left out\n");
    expect(built.counts).toEqual({
      cinemas: dataset.cinemas.length,
      films: dataset.films.length - 1,
      showtimes: dataset.showtimes.length,
      attributes: dataset.attributes.length,
    });
  });

  test("two markets whose records are the same bytes (both empty) have snapshot ids of their own", () => {
    for (const file of DATA_FILES)
      expect(readFileSync(path.join(out, "es", file)), file).toEqual(readFileSync(path.join(out, "pt", file)));
    expect(new Set(built.manifests.map((m) => m.snapshotId)).size).toBe(MARKETS.length);
  });

  test("markets.json is read, not named as unread; a folder by its name is", async () => {
    expect(built.report.unread).toEqual([]);
    const dataDir = dataFolder(dataset);
    writeFiles(dataDir, { "markets.json/notes.txt": "draft" });
    const result = await runBuild({ dataDir, output: createDiskWriter(path.join(work, "plain")), gzipWorkers: 0 });
    expect(result.ok && result.report.unread).toEqual(["markets.json/"]);
    expect(existsSync(path.join(work, "plain", "manifest.json"))).toBe(true);
  });

  test("a markets.json in the data never builds one snapshot: without markets, no market field", () => {
    expect(readManifest(path.join(work, "plain")).market).toBeUndefined();
  });
});

describe("problems of markets", () => {
  const { cinemas, films, attributes, showtimes } = validRecords();
  const base = {
    "cinemas/c.ndjson": toNdjson([
      cinemas,
      { ...cinemas, id: "cinema-2", location: { ...cinemas.location, countryCode: "FR" } },
    ]),
    "films/f.json": JSON.stringify([films]),
    "attributes/a.json": JSON.stringify([
      attributes,
      { ...attributes, id: "lang-en", kind: "language", name: "English" },
    ]),
    "showtimes/s.ndjson": toNdjson([showtimes]),
  };

  /** Builds the files; returns [code, file, line or index, path, message] of each problem, and what was written. */
  async function problemsOf(name: string, markets: string, check = false) {
    const dataDir = path.join(work, `problems-${name}`);
    writeFiles(dataDir, { ...base, "markets.json": markets });
    const into = path.join(work, `problems-${name}-out`);
    const result = check
      ? await checkData({ dataDir, validateWorkers: 0 })
      : await runBuild({ dataDir, output: createDiskWriter(into), gzipWorkers: 0, validateWorkers: 0 });
    if (result.ok) throw new Error("the build must fail");
    expect(existsSync(into), "nothing is written").toBe(false);
    return result.problems.map((p) => [
      p.code,
      path.relative(dataDir, p.file),
      p.line ?? p.index ?? null,
      p.path,
      p.message,
    ]);
  }

  const gbFr = [
    { id: "gb", name: "UK", countries: ["GB"] },
    { id: "fr", name: "France", countries: ["FR"] },
  ];

  test("a cinema whose country is in no market points at the cinema's file and line", async () => {
    expect(await problemsOf("outside", JSON.stringify([gbFr[0]]))).toEqual([
      [
        "cinema_outside_markets",
        "cinemas/c.ndjson",
        2,
        "location.countryCode",
        '"FR" is in no market: add it to a market\'s countries in markets.json, or leave the cinema out',
      ],
    ]);
  });

  test.each([
    [
      "not JSON",
      '[{"id": "gb"}\n{"id": "fr"}]',
      [["invalid_market", "markets.json", 2, "", expect.stringMatching(/^is not valid JSON/)]],
    ],
    [
      "not an array",
      '{"gb": {}}',
      [["invalid_market", "markets.json", null, "", expect.stringMatching(/^must hold a JSON array/)]],
    ],
    [
      "a field breaking a rule",
      JSON.stringify([gbFr[0], { ...gbFr[1], id: "France" }]),
      [["invalid_market", "markets.json", 1, "id", expect.stringMatching(/^must be 2..32 lowercase/)]],
    ],
    [
      "an id used twice",
      JSON.stringify([gbFr[0], { ...gbFr[1], id: "gb" }]),
      [["duplicate_market", "markets.json", 1, "id", '"gb" is already the id of the market at [0]']],
    ],
    [
      "a country in two markets",
      JSON.stringify([gbFr[0], { ...gbFr[1], countries: ["FR", "GB"] }]),
      [
        [
          "country_in_two_markets",
          "markets.json",
          1,
          "countries[1]",
          expect.stringContaining('"GB" is in market "fr" and in market "gb"'),
        ],
      ],
    ],
  ])("markets.json %s: a problem at its place, and --check finds the same", async (name, markets, expected) => {
    expect(await problemsOf(name.replaceAll(" ", "-"), markets)).toEqual(expected);
    expect(await problemsOf(`${name.replaceAll(" ", "-")}-check`, markets, true)).toEqual(expected);
  });

  test("--check of valid markets counts each market and writes nothing", async () => {
    const dataDir = path.join(work, "check-valid");
    writeFiles(dataDir, { ...base, "markets.json": JSON.stringify(gbFr) });
    const result = await checkData({ dataDir, validateWorkers: 0 });
    expect(result.ok && result.report.markets?.markets.map((m) => [m.market.id, m.counts.cinemas, m.history])).toEqual([
      ["gb", 1, undefined],
      ["fr", 1, undefined],
    ]);
    expect(result.ok && formatBuildReport(result.report)).toContain("market fr: 1 cinema, 0 films, 0 showtimes\n");
    expect(readdirSync(work).filter((name) => name.startsWith("check-valid"))).toEqual(["check-valid"]);
  });
});

describe("history per market", () => {
  test("each market carries its own previous snapshot's history; a market new to it begins afresh", async () => {
    const gb = MARKETS[0]!;
    const gone = dataset.showtimes.find((s) => marketDataset(dataset, gb).showtimes.includes(s))!;
    const next = { ...dataset, showtimes: dataset.showtimes.filter((s) => s !== gone) };
    const grown = [...MARKETS, { id: "nl", name: "Netherlands", countries: ["NL"] }];
    const again = await buildMarkets(next, grown, path.join(work, "again"), { previous: out });
    const lines = formatBuildReport(again.report).split("\n");
    expect(lines).toContain(
      `market gb: ${marketDataset(next, gb).cinemas.length} cinemas, ${marketDataset(next, gb).films.length} films, ` +
        `${marketDataset(next, gb).showtimes.length} showtimes; history: generation 1 (0 records changed, 1 deletion)`,
    );
    expect(lines.find((line) => line.startsWith("market dach:"))).toMatch(/history: generation 0 \(0 records changed/);
    expect(lines.find((line) => line.startsWith("market nl:"))).toMatch(
      /history: begun afresh at generation 0 \(the previous snapshot has no market nl\)$/,
    );
    // The same chain: a mirror of dach keeps its sync token.
    expect(again.manifests[1]!.history).toEqual(built.manifests[1]!.history);
  });

  test("a previous snapshot built without markets begins every market afresh, and the other way round", async () => {
    const single = path.join(work, "single");
    const plain = await runBuild({ dataDir: dataFolder(dataset), output: createDiskWriter(single), gzipWorkers: 0 });
    expect(plain.ok).toBe(true);
    const multi = await buildMarkets(dataset, MARKETS, path.join(work, "from-single"), { previous: single });
    expect(multi.report.markets.markets.map((m) => m.history?.restarted)).toEqual(
      MARKETS.map(() => "the previous snapshot was built without markets"),
    );
    const back = await runBuild({
      dataDir: dataFolder(dataset),
      output: createDiskWriter(path.join(work, "back")),
      previous: out,
      gzipWorkers: 0,
    });
    expect(back.ok && "history" in back.report && back.report.history.restarted).toBe(
      "the previous snapshot is a multi-market folder",
    );
  });

  test("a rebuild in place takes the multi-market folder at --out as the previous", () => {
    expect(previousSnapshotOf({ outDir: out, newHistory: false })).toBe(out);
    expect(previousSnapshotOf({ outDir: out, newHistory: true })).toBeUndefined();
  });
});

describe("the reader of a multi-market folder", () => {
  test("refuses a market whose folder holds another market's snapshot, naming its manifest", () => {
    const mixed = path.join(work, "mixed");
    cpSync(out, mixed, { recursive: true });
    renameSync(path.join(mixed, "gb"), path.join(mixed, "was-gb"));
    renameSync(path.join(mixed, "fr"), path.join(mixed, "gb"));
    expect(() => openMarketsFolder(mixed)).toThrow(
      new SnapshotError("gb/manifest.json", "is not the market markets.json names"),
    );
    rmSync(path.join(mixed, "gb"), { recursive: true });
    expect(() => openMarketsFolder(mixed)).toThrow(/^gb\/manifest\.json: cannot be read/);
    writeFileSync(path.join(mixed, "markets.json"), "[]");
    expect(() => openMarketsFolder(mixed)).toThrow("markets.json: is not a JSON object");
  });
});

test("a build killed mid-swap leaves the folder aside; the next build puts it back and carries it", async () => {
  const killedOut = path.join(work, "killed");
  await buildMarkets(dataset, MARKETS, killedOut);
  const killed = await runTsxScript(path.join(ROOT, "test/helpers/build-killed-at-swap.ts"), [
    dataFolder(dataset, MARKETS),
    killedOut,
  ]);
  expect(killed.code, killed.stderr).toBeNull();
  expect(existsSync(killedOut)).toBe(false);
  const writer = createDiskWriter(killedOut);
  await writer.abort();
  expect(isMarketsFolder(killedOut)).toBe(true);
  const next = await buildMarkets(dataset, MARKETS, killedOut, { previous: killedOut });
  expect(next.report.markets.markets.map((m) => m.history?.restarted)).toEqual(MARKETS.map(() => undefined));
});

test("npm run build writes a multi-market folder and says so per market", async () => {
  const cliOut = path.join(work, "cli");
  const result = await runBuildCli([
    "--data",
    dataFolder(dataset, MARKETS),
    "--out",
    cliOut,
    "--quiet",
    "--gzip-level",
    "1",
  ]);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(
    new RegExp(
      `^built ${cliOut}: ${MARKETS.length} markets, ${dataset.cinemas.length} cinemas, ` +
        `${dataset.films.length - 1} films, `,
    ),
  );
  expect(result.stdout).toContain("\nmarket dach: ");
  expect(readMarketsIndex(cliOut)).toEqual(readMarketsIndex(out));
});

test("markets are built smallest first, each let go once written; a tie in markets.json's order", () => {
  const part = (id: string, showtimes: number) => ({
    market: { id, name: id, countries: [id.toUpperCase()] },
    linked: { records: { cinemas: [], films: [], attributes: [], showtimes: Array(showtimes).fill({}), invalid: [] } },
  });
  const split = { markets: [part("us", 5), part("gb", 2), part("ie", 0), part("de", 2)], filmsShowing: 0 };
  expect(buildOrder({ ...split, filmsInNoMarket: 0 } as unknown as PartitionedRecords)).toEqual([2, 1, 3, 0]);
});

test("the generator's world dataset builds into every market, each with cinemas", async () => {
  const dataDir = path.join(work, "world");
  for (const resource of ["attributes", "cinemas", "films", "showtimes"])
    mkdirSync(path.join(dataDir, resource), { recursive: true });
  const showtimes = 364 * WORLD_MARKETS.length;
  await writeGenerated({ out: dataDir, showtimes, seed: 5, markets: "world" });
  const result = await runBuild({
    dataDir,
    output: createDiskWriter(path.join(work, "world-out")),
    gzipLevel: 1,
    gzipWorkers: 0,
    validateWorkers: 0,
  });
  if (!result.ok || !("markets" in result)) throw new Error(JSON.stringify(!result.ok && result.problems.slice(0, 3)));
  expect(result.report.warnings).toEqual([]);
  const markets = result.report.markets.markets;
  expect(markets.length).toBeGreaterThanOrEqual(12);
  expect(markets.filter((m) => m.counts.cinemas === 0)).toEqual([]);
});
