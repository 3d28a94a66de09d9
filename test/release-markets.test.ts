/**
 * `npm run release` of data with markets.json (decision: markets, released together) against the
 * fake `vercel`: every market built with its own history and diffed against its own last release,
 * the removal limit applied market by market, one deployment for all, and the state and the report
 * per market. The data is the generated dataset over GB, DE and FR, split by country; the clock is
 * RELEASE_NOW.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { marketsIndexId } from "../api/_core/format/layout/markets-index.js";
import { readMarketsIndex } from "../api/_core/format/read/markets-folder.js";
import { readManifest } from "../api/_core/format/read/snapshot.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { type Dataset, generateDataset, writeDataset } from "./helpers/dataset.js";
import { spreadCountries, writeMarkets } from "./helpers/markets.js";
import { commandsOf, makeProject, type ReleaseHarness } from "./helpers/release-harness.js";

/** Before every showtime of the test data (which start on 2026-11-23 from 09:00 UTC): nothing is past. */
const MORNING = { RELEASE_NOW: "2026-11-23T06:00:00Z" };

const GB = { id: "gb", name: "United Kingdom", countries: ["GB"] };
const DE = { id: "de", name: "Germany", countries: ["DE"] };
const FR = { id: "fr", name: "France", countries: ["FR"] };

const world = spreadCountries(generateDataset({ seed: 31, showtimes: 300, cinemas: 6 }), ["GB", "DE", "FR"]);
const countryOf = (dataset: Dataset) => new Map(dataset.cinemas.map((c) => [c.id, c.location.countryCode]));

/** The dataset without the cinemas of `country` and their showtimes (their films stay, shown elsewhere or nowhere). */
function without(dataset: Dataset, country: string): Dataset {
  const countries = countryOf(dataset);
  return {
    ...dataset,
    cinemas: dataset.cinemas.filter((c) => c.location.countryCode !== country),
    showtimes: dataset.showtimes.filter((s) => countries.get(s.cinemaId) !== country),
  };
}

/** A normal day's update in `country` alone: every 25th of its showtimes gone, one screen renamed. */
function update(dataset: Dataset, country: string, every = 25): Dataset {
  const countries = countryOf(dataset);
  let seen = 0;
  const showtimes = dataset.showtimes.flatMap((showtime) => {
    if (countries.get(showtime.cinemaId) !== country) return [showtime];
    seen++;
    if (seen % every === 0) return [];
    return [seen === 1 ? { ...showtime, screenName: "Screen X" } : showtime];
  });
  return { ...dataset, showtimes };
}

const twoMarkets = without(world, "FR");
const gbChanged = update(twoMarkets, "GB");

let root: string;
let harness: ReleaseHarness;
const state = () => path.join(root, "state");

/** A data folder of `dataset`, split into `markets` (none: no markets.json). */
function dataFolder(name: string, dataset: Dataset, markets?: unknown[]): string {
  const dir = path.join(root, `data-${name}`);
  if (existsSync(dir)) return dir;
  writeDataset(dir, dataset);
  if (markets) writeMarkets(dir, markets);
  return dir;
}

const release = (data: string, extra: string[] = [], stateDir = state()) =>
  harness.run(["--data", data, "--state", stateDir, "--prod", ...extra], MORNING);
const stateJson = (stateDir = state()) => readFileSync(path.join(stateDir, "state.json"), "utf8");
const production = (stateDir = state()) => JSON.parse(stateJson(stateDir)).production;
const releasedDir = () => path.join(state(), "snapshots", production().snapshotId);
const historyOf = (market: string) => readManifest(path.join(releasedDir(), market)).history;
/** The release's lines that start with `start` (after "release: "). */
const said = (stdout: string, start: string) =>
  stdout.split("\n").filter((line) => line.startsWith(`release: ${start}`));

beforeAll(() => {
  root = makeTempDir("release-markets");
  harness = makeProject(path.join(root, "project"), "dependencies");
});
afterAll(() => removeDir(root));

describe("a release of markets", () => {
  test("the first builds every market, deploys them as one deployment and keeps each one's release", async () => {
    const run = await release(dataFolder("first", twoMarkets, [GB, DE]), ["--first"]);
    expect(run.code, run.stderr).toBe(0);
    expect(commandsOf(run)).toEqual(["pull", "build", "deploy"]);
    const recorded = production();
    const index = readMarketsIndex(releasedDir());
    expect(recorded.snapshotId).toBe(marketsIndexId(index));
    expect(readdirSync(releasedDir()).sort()).toEqual(["de", "gb", "markets.json"]);
    const markets = index.markets.map((m) => ({ id: m.id, snapshotId: m.snapshotId }));
    expect(recorded.markets).toMatchObject(markets);
    for (const market of recorded.markets)
      expect(market.counts).toEqual(readManifest(path.join(releasedDir(), market.id)).counts);
    // Counts are each market's: a film showing in both is in each.
    expect(recorded.counts).toBeUndefined();
    // One upload, carrying every market's function with its own snapshot.
    expect(run.calls[2]).toMatchObject({
      snapshotId: recorded.snapshotId,
      markets: Object.fromEntries(markets.map((m) => [m.id, m.snapshotId])),
    });
    expect(said(run.stdout, "built markets gb, de")).toEqual([
      expect.stringMatching(
        new RegExp(
          `^release: built markets gb, de \\(index ${recorded.snapshotId}\\): ` +
            `${twoMarkets.showtimes.length} showtimes, ${twoMarkets.cinemas.length} cinemas in 2 markets \\(`,
        ),
      ),
    ]);
    expect(run.stdout).toContain("release: diff: no earlier release to compare with\n");
    expect(run.stdout).toMatch(/every check passed; \d+ files, [\d.]+ MB \(a function per market, 2, with their/);
    expect(run.stdout).toContain(`the last production release is now markets gb, de (index ${recorded.snapshotId})`);
  });

  test("the next, with one market changed: its diff is reported, the other is the same snapshot", async () => {
    const before = production();
    const [gbBefore, deBefore] = [historyOf("gb"), historyOf("de")];
    const run = await release(dataFolder("gb-changed", gbChanged, [GB, DE]));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`history from markets gb, de (index ${before.snapshotId})`);
    const lines = run.stdout.split("\n");
    const at = lines.findIndex((line) => line.startsWith("release: diff against the last release, market by"));
    expect(lines[at]).toMatch(/market by market: no market lost more than 20% of a resource \(/);
    const gbShowtimes = before.markets[0].counts.showtimes;
    const removed = Math.floor(gbShowtimes / 25);
    expect(lines.slice(at + 1, at + 3)).toEqual([
      "release:   market gb:",
      `release:     showtimes: 0 added, ${removed} removed, 1 changed (${gbShowtimes} → ${gbShowtimes - removed})`,
    ]);
    const de = before.markets[1];
    expect(lines).toContain(`release:   market de: no changes (snapshot ${de.snapshotId}, as last released)`);
    const after = production();
    expect(after.markets[1]).toEqual(de);
    expect(after.markets[0].snapshotId).not.toBe(before.markets[0].snapshotId);
    // Each market's history goes on from its own last release: gb's one generation on, de's as it was.
    expect(historyOf("gb")).toEqual({ id: gbBefore.id, generation: gbBefore.generation + 1 });
    expect(historyOf("de")).toEqual(deBefore);
  });

  test("the same data again deploys nothing new", async () => {
    const before = stateJson();
    const run = await release(dataFolder("gb-changed", gbChanged, [GB, DE]));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `nothing new to deploy: the last production release has markets gb, de (index ${production().snapshotId})`,
    );
    expect(run.calls).toEqual([]);
    expect(stateJson()).toBe(before);
  });

  test("one market over the removal limit stops every market, naming it; nothing deployed", async () => {
    const before = stateJson();
    const run = await release(dataFolder("de-halved", update(gbChanged, "DE", 2), [GB, DE]));
    expect(run.code).toBe(4);
    expect(run.calls).toEqual([]);
    expect(stateJson()).toBe(before);
    expect(run.stdout).toMatch(/market by market: market de lost more than 20% of a resource \(/);
    const reasons = run.stderr.split("\n").filter((line) => /^release: market \w+: /.test(line));
    expect(reasons.length).toBeGreaterThan(0);
    for (const line of reasons) expect(line).toMatch(/^release: market de: [\d.]+% of \w+ were removed/);
    expect(run.stderr).toMatch(/^release: market de: [\d.]+% of showtimes were removed \(\d+ of \d+\)/m);
    expect(run.stderr).toContain(
      `review: npm run diff -- --from ${path.join(releasedDir(), "de")} --to ${path.join(state(), "candidate", "de")}`,
    );
    expect(run.stderr).toContain("nothing was deployed (the markets are released together)");
  });

  test("a market added to markets.json starts its history afresh, and is said to", async () => {
    const before = production();
    const run = await release(dataFolder("fr-added", update(world, "GB"), [GB, DE, FR]));
    expect(run.code, run.stderr).toBe(0);
    const after = production();
    expect(after.markets.map((m: { id: string }) => m.id)).toEqual(["gb", "de", "fr"]);
    expect(after.markets.slice(0, 2)).toEqual(before.markets);
    expect(run.calls.find((c) => c.args[0] === "deploy")!.markets).toEqual(
      Object.fromEntries(after.markets.map((m: { id: string; snapshotId: string }) => [m.id, m.snapshotId])),
    );
    const fr = after.markets[2].counts;
    expect(fr.showtimes).toBeGreaterThan(0);
    expect(run.stdout).toContain(
      "release:   market fr: new (not in the last release), nothing to compare with: its history starts afresh; " +
        `${fr.showtimes} showtimes, ${fr.cinemas} cinemas, ${fr.films} films, ${fr.attributes} attributes\n`,
    );
    expect(historyOf("fr").generation).toBe(0);
  });

  test("a market gone from markets.json is said to be no longer deployed", async () => {
    const de = production().markets[1].counts;
    const run = await release(dataFolder("de-removed", without(update(world, "GB"), "DE"), [GB, FR]), ["--dry-run"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "release:   market de: removed from markets.json, no longer deployed (the last release had " +
        `${de.showtimes} showtimes, ${de.cinemas} cinemas, ${de.films} films, ${de.attributes} attributes there)\n`,
    );
    expect(said(run.stdout, "  market gb: no changes")).toHaveLength(1);
    expect(said(run.stdout, "  market fr: no changes")).toHaveLength(1);
  });
});

describe("between one snapshot and markets", () => {
  test("markets after one snapshot start afresh, each said to; one snapshot after markets too", async () => {
    const own = path.join(root, "state-one");
    const one = await release(dataFolder("one", twoMarkets), ["--first"], own);
    expect(one.code, one.stderr).toBe(0);
    expect(production(own).counts.showtimes).toBe(twoMarkets.showtimes.length);
    const split = await release(dataFolder("first", twoMarkets, [GB, DE]), [], own);
    expect(split.code, split.stderr).toBe(0);
    for (const id of ["gb", "de"])
      expect(split.stdout).toMatch(
        new RegExp(`\nrelease: {3}market ${id}: new \\(the last release had no markets\\), nothing to compare with`),
      );
    expect(production(own).markets.map((m: { id: string }) => m.id)).toEqual(["gb", "de"]);
    const joined = await release(dataFolder("one", twoMarkets), ["--dry-run"], own);
    expect(joined.code, joined.stderr).toBe(0);
    expect(joined.stdout).toContain(
      "release: diff: the last release had markets gb, de and this data has none (no markets.json): " +
        "nothing to compare with, its history starts afresh\n",
    );
  });
});
