/**
 * The release's parts on their own (decision: prebuilt releases): its arguments at each bound, the
 * clock and the instant it leaves the past out from, the state's reading and advancing, and the lock.
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { parseReleaseArgs, UsageError } from "../scripts/release/args.js";
import { dropBeforeFor, readNow } from "../scripts/release/clock.js";
import { lockState } from "../scripts/release/lock.js";
import { tightenPulledSecrets } from "../scripts/release/working-folder.js";
import { advanceState, readState, StateError, type ReleaseRecord } from "../scripts/release/state.js";
import { summarizeFolder } from "../scripts/release/released-folder.js";
import { encodeMarketsIndex } from "../api/_core/format/layout/markets-index.js";
import { makeTempDir, removeDir, validRecords, writeFiles, toNdjson } from "./helpers/build-helpers.js";
import { entryArgs, startProcess } from "./helpers/child-processes.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";

describe("arguments", () => {
  const parse = (...args: string[]) => parseReleaseArgs(["--data", "d", ...args]);

  test("defaults", () => {
    expect(parse()).toEqual({
      dataDir: "d",
      stateDir: ".release",
      prod: false,
      dryRun: false,
      first: false,
      force: false,
      removedPercent: 20,
      keepPastDays: 1,
    });
  });

  test.each([
    [["--keep-past-days", "1"], { keepPastDays: 1 }],
    [["--keep-past-days", "30"], { keepPastDays: 30 }],
    [["--fail-if-removed-over", "0%"], { removedPercent: 0 }],
    [["--fail-if-removed-over", "100%"], { removedPercent: 100 }],
    [["--fail-if-removed-over", "12.5"], { removedPercent: 12.5 }],
    [["--prod", "--first"], { prod: true, first: true }],
  ])("%j is accepted", (args, expected) => {
    expect(parse(...args)).toMatchObject(expected);
  });

  test.each([
    [[], "--data DIR is required"],
    [["--data", ""], "must not be empty"],
    [["--data", "d", "--keep-past-days", "0"], "--keep-past-days must be a whole number from 1 to 30"],
    [["--data", "d", "--keep-past-days", "31"], "--keep-past-days must be a whole number from 1 to 30"],
    [["--data", "d", "--keep-past-days", "1.5"], "--keep-past-days must be a whole number from 1 to 30"],
    [["--data", "d", "--fail-if-removed-over", "100.1%"], "--fail-if-removed-over must be a percentage"],
    [["--data", "d", "--first"], "--first is for the first production release: add --prod"],
    [["--data", "d", "--deploy"], "Unknown option '--deploy'"],
  ])("%j is refused: %s", (args, message) => {
    expect(() => parseReleaseArgs(args)).toThrow(UsageError);
    expect(() => parseReleaseArgs(args)).toThrow(message);
  });
});

describe("the clock", () => {
  test.each([
    ["2026-11-23T00:00:00Z", 1, "2026-11-22T00:00:00Z"],
    ["2026-11-22T23:59:59.999Z", 1, "2026-11-21T00:00:00Z"],
    ["2026-11-23T05:17:00+09:00", 1, "2026-11-21T00:00:00Z"],
    ["2026-03-01T12:00:00Z", 30, "2026-01-30T00:00:00Z"],
  ])("now %s, keeping %i day(s): drop before %s", (now, days, expected) => {
    expect(dropBeforeFor(readNow({ RELEASE_NOW: now }), days)).toBe(expected);
  });

  test("without RELEASE_NOW it is the system clock; a malformed one is a usage error", () => {
    expect(readNow({}, () => 1234)).toBe(1234);
    expect(() => readNow({ RELEASE_NOW: "2026-11-23" })).toThrow(UsageError);
  });
});

describe("the state", () => {
  let root: string;
  beforeEach(() => {
    root = makeTempDir("release-state");
  });
  afterEach(() => removeDir(root));

  async function buildSnapshot(dir: string, films: number): Promise<string> {
    const records = validRecords();
    const data = path.join(root, `data-${films}`);
    const film = (i: number) => ({ ...records.films, id: `film-${i}` });
    writeFiles(data, {
      "cinemas/c.ndjson": toNdjson([records.cinemas]),
      "films/f.ndjson": toNdjson([records.films, ...Array.from({ length: films }, (_, i) => film(i + 2))]),
      "attributes/a.ndjson": toNdjson([records.attributes, { ...records.attributes, id: "lang-en", kind: "language" }]),
      "showtimes/s.ndjson": toNdjson([records.showtimes]),
    });
    const result = await runBuild({ dataDir: data, output: createDiskWriter(dir), gzipLevel: 1, gzipWorkers: 0 });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    if ("markets" in result) throw new Error("a build without markets.json was meant");
    return result.manifest.snapshotId;
  }

  const record = (snapshotId: string): ReleaseRecord => ({
    snapshotId,
    url: "https://x.vercel.app",
    deployedAt: "2026-11-23T06:00:00Z",
    dropBefore: "2026-11-22T00:00:00Z",
    counts: { cinemas: 1, films: 1, showtimes: 1, attributes: 2 },
    commit: null,
  });

  test("a missing folder is an empty state; advancing keeps only the released snapshot", async () => {
    const state = path.join(root, "state");
    expect(readState(state)).toEqual({ format: 1 });
    const first = await buildSnapshot(path.join(state, "candidate"), 0);
    const afterFirst = advanceState(
      state,
      readState(state),
      "production",
      record(first),
      path.join(state, "candidate"),
    );
    const second = await buildSnapshot(path.join(state, "candidate"), 1);
    advanceState(state, afterFirst, "production", record(second), path.join(state, "candidate"));
    expect(readState(state).production?.snapshotId).toBe(second);
    expect(readdirSync(path.join(state, "snapshots"))).toEqual([second]);
    expect(existsSync(path.join(state, "candidate"))).toBe(false);
  });

  test("a preview changes only its record, never the released snapshot", async () => {
    const state = path.join(root, "state");
    const released = await buildSnapshot(path.join(state, "candidate"), 0);
    const after = advanceState(state, readState(state), "production", record(released), path.join(state, "candidate"));
    const preview = await buildSnapshot(path.join(state, "candidate"), 3);
    advanceState(state, after, "preview", record(preview), path.join(state, "candidate"));
    expect(readState(state)).toMatchObject({ production: { snapshotId: released }, preview: { snapshotId: preview } });
    expect(readdirSync(path.join(state, "snapshots"))).toEqual([released]);
  });

  test.each([
    ["state.json is not JSON", (state: string) => writeFileSync(path.join(state, "state.json"), "{"), "cannot be read"],
    [
      "state.json has an unknown field",
      (state: string) => writeFileSync(path.join(state, "state.json"), JSON.stringify({ format: 1, extra: 1 })),
      "has the wrong shape",
    ],
    [
      "the released snapshot is gone",
      (state: string) => {
        const json = JSON.parse(readFileSync(path.join(state, "state.json"), "utf8"));
        json.production.snapshotId = "0".repeat(32);
        writeFileSync(path.join(state, "state.json"), JSON.stringify(json));
      },
      "cannot be read",
    ],
  ])("%s: a StateError that names the problem", async (_name, spoil, message) => {
    const state = path.join(root, "state");
    const id = await buildSnapshot(path.join(state, "candidate"), 0);
    advanceState(state, readState(state), "production", record(id), path.join(state, "candidate"));
    spoil(state);
    expect(() => readState(state)).toThrow(StateError);
    expect(() => readState(state)).toThrow(message);
  });

  /** A release of markets (decision: markets, released together): one market, gb, in the state. */
  async function releaseMarkets(state: string): Promise<ReleaseRecord> {
    const records = validRecords();
    const data = path.join(root, "data-markets");
    writeFiles(data, {
      "cinemas/c.ndjson": toNdjson([records.cinemas]),
      "films/f.ndjson": toNdjson([records.films]),
      "attributes/a.ndjson": toNdjson([records.attributes, { ...records.attributes, id: "lang-en", kind: "language" }]),
      "showtimes/s.ndjson": toNdjson([records.showtimes]),
      "markets.json": JSON.stringify([{ id: "gb", name: "United Kingdom", countries: ["GB"] }]),
    });
    const candidate = path.join(state, "candidate");
    const result = await runBuild({ dataDir: data, output: createDiskWriter(candidate), gzipLevel: 1, gzipWorkers: 0 });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const { snapshotId, markets } = summarizeFolder(candidate);
    const { counts: _, ...rest } = record(snapshotId);
    const released: ReleaseRecord = { ...rest, markets };
    advanceState(state, readState(state), "production", released, candidate);
    return released;
  }

  test("a release of markets is kept under its index's id, with each market's snapshot and counts", async () => {
    const state = path.join(root, "state");
    const released = await releaseMarkets(state);
    expect(released.markets).toEqual([
      { id: "gb", snapshotId: expect.stringMatching(/^[0-9a-f]{32}$/), counts: expect.objectContaining({ films: 1 }) },
    ]);
    expect(readState(state).production).toEqual(released);
    expect(readdirSync(path.join(state, "snapshots", released.snapshotId)).sort()).toEqual(["gb", "markets.json"]);
  });

  type Recorded = { production: ReleaseRecord & { markets: NonNullable<ReleaseRecord["markets"]> } };
  test.each([
    ["another index id", (json: Recorded) => (json.production.snapshotId = "0".repeat(32)), "cannot be read"],
    [
      "counts beside the markets",
      (json: Recorded) => (json.production.counts = { ...json.production.markets[0]!.counts }),
      "has the wrong shape",
    ],
    [
      "no markets and no counts",
      (json: Recorded) => delete (json.production as ReleaseRecord).markets,
      "has the wrong shape",
    ],
    ["no market", (json: Recorded) => (json.production.markets = []), "has the wrong shape"],
  ])("a release of markets with %s: a StateError", async (_name, spoil, message) => {
    const state = path.join(root, "state");
    await releaseMarkets(state);
    const json = JSON.parse(readFileSync(path.join(state, "state.json"), "utf8"));
    spoil(json);
    writeFileSync(path.join(state, "state.json"), JSON.stringify(json));
    expect(() => readState(state)).toThrow(StateError);
    expect(() => readState(state)).toThrow(message);
  });

  test("a released folder of markets pieced together from two builds is refused, naming the market", async () => {
    const state = path.join(root, "state");
    const { snapshotId } = await releaseMarkets(state);
    const index = path.join(state, "snapshots", snapshotId, "markets.json");
    const { checksum: _, ...other } = JSON.parse(readFileSync(index, "utf8"));
    other.markets[0].name = "Britain";
    writeFileSync(index, encodeMarketsIndex(other));
    expect(() => readState(state)).toThrow("gb/manifest.json: is not the market markets.json names");
  });

  test("the lock: held by a live process it is refused; left by a dead one it is taken over", () => {
    const state = path.join(root, "state");
    mkdirSync(state);
    const release = lockState(state);
    expect(() => lockState(state)).toThrow(`another release (process ${process.pid})`);
    release();
    const dead = spawnSync(process.execPath, ["-e", "process.pid"]).pid!;
    writeFileSync(path.join(state, "lock"), `${dead}\n`);
    const again = lockState(state);
    expect(readFileSync(path.join(state, "lock"), "utf8")).toBe(`${process.pid}\n`);
    again();
    expect(existsSync(path.join(state, "lock"))).toBe(false);
  });

  test.each([
    ["an empty lock", "", "took"],
    ["a lock holding no pid", "release\n", "took"],
    ["a lock whose process is gone, its takeover begun by a live release", "marker of a live taker", "is taking over"],
    ["a lock whose process is gone, its takeover left by a dead one", "marker of a dead taker", "was interrupted"],
  ])("%s", (_name, lock, outcome) => {
    const state = path.join(root, "state");
    mkdirSync(state);
    const dead = spawnSync(process.execPath, ["-e", "process.pid"]).pid!;
    const marker = path.join(state, `lock.takeover-${dead}`);
    if (lock.startsWith("marker")) {
      writeFileSync(path.join(state, "lock"), `${dead}\n`);
      writeFileSync(marker, `${lock.includes("live") ? process.pid : dead}\n`);
    } else writeFileSync(path.join(state, "lock"), lock);
    if (outcome === "took") {
      lockState(state)();
      return;
    }
    expect(() => lockState(state)).toThrow(StateError);
    expect(() => lockState(state)).toThrow(outcome);
    // Left for its taker, or for the operator: neither file is removed.
    expect(readFileSync(path.join(state, "lock"), "utf8")).toBe(`${dead}\n`);
    expect(existsSync(marker)).toBe(true);
  });
});

describe("the secrets a pull wrote", () => {
  let root: string;
  beforeEach(() => {
    root = makeTempDir("release-secrets");
    mkdirSync(path.join(root, ".vercel"));
  });
  afterEach(() => removeDir(root));
  const modeOf = (name: string) => (statSync(path.join(root, ".vercel", name)).mode & 0o777).toString(8);

  test.each([
    [0o600, "600", false],
    [0o400, "400", false],
    [0o640, "600", true],
    [0o604, "600", true],
    [0o644, "600", true],
    [0o666, "600", true],
  ])("an environment file of mode %o ends %s", (mode, expected, tightened) => {
    const file = path.join(root, ".vercel/.env.production.local");
    writeFileSync(file, 'ACCESS_JSON="{}"\n');
    chmodSync(file, mode);
    expect(tightenPulledSecrets(root)).toEqual(tightened ? [".vercel/.env.production.local"] : []);
    expect(modeOf(".env.production.local")).toBe(expected);
  });

  test("the link and settings, which hold no secret, are left as they are", () => {
    writeFileSync(path.join(root, ".vercel/project.json"), "{}");
    chmodSync(path.join(root, ".vercel/project.json"), 0o644);
    expect(tightenPulledSecrets(root)).toEqual([]);
    expect(modeOf("project.json")).toBe("644");
  });
});

describe("a stale lock taken over by several releases at once", () => {
  const CONTENDERS = 8;
  const ROUNDS = 6;
  let root: string;
  beforeEach(() => {
    root = makeTempDir("release-lock");
  });
  afterEach(() => removeDir(root));

  /** Resolves with the child's stdout once it printed `lines` lines. */
  function linesOf(child: ChildProcess, lines: number): Promise<string[]> {
    let text = "";
    return new Promise((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        text += chunk;
        const got = text.split("\n").filter(Boolean);
        if (got.length >= lines) resolve(got);
      });
      child.once("exit", (code) => reject(new Error(`contender exited ${code}: ${text}`)));
    });
  }

  /** Real processes, released together at a lock left by a dead one; what each of them got. */
  async function contend(round: number): Promise<string[]> {
    const state = path.join(root, `state-${round}`);
    mkdirSync(state);
    const dead = spawnSync(process.execPath, ["-e", "process.pid"]).pid!;
    writeFileSync(path.join(state, "lock"), `${dead}\n`);
    const [go, done] = [path.join(root, `go-${round}`), path.join(root, `done-${round}`)];
    const children = Array.from({ length: CONTENDERS }, () =>
      startProcess(process.execPath, [...entryArgs("test/helpers/lock-contender.mjs"), state, go, done], {
        stdio: ["ignore", "pipe", "inherit"],
      }),
    );
    const exited = children.map((child) => new Promise((resolve) => child.once("exit", resolve)));
    const outcomes = children.map((child) => linesOf(child, 2));
    await Promise.all(children.map((child) => linesOf(child, 1)));
    writeFileSync(go, "");
    const results = (await Promise.all(outcomes)).map((lines) => lines[1]!);
    writeFileSync(done, "");
    await Promise.all(exited);
    expect(existsSync(path.join(state, "lock"))).toBe(false);
    return results;
  }

  test("exactly one of them proceeds; the others are told who holds it", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const results = await contend(round);
      expect(
        results.filter((r) => r === "took"),
        results.join("\n"),
      ).toHaveLength(1);
      for (const refused of results.filter((r) => r !== "took"))
        expect(refused).toMatch(
          /^refused (another release \(process \d+\) is using|another release \(process \d+\) is taking over)/,
        );
    }
  });
});
