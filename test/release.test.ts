/**
 * `npm run release` (docs/operations.md, "Deploying"; decision: prebuilt releases) against a fake
 * `vercel` on PATH, without network: what is deployed, what stops a release and at which step, and
 * that --state moves only after a confirmed deployment. The clock is RELEASE_NOW.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Manifest } from "../api/_core/format/layout/manifest.js";
import { readManifest } from "../api/_core/format/read/snapshot.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { generateDataset, writeDataset, type Dataset } from "./helpers/dataset.js";
import { commandsOf, makeProject, type Packages, type ReleaseHarness } from "./helpers/release-harness.js";

/** Before every showtime of the test data (which start on 2026-11-23 from 09:00 UTC): nothing is past. */
const MORNING = { RELEASE_NOW: "2026-11-23T06:00:00Z" };

let root: string;
let harness: ReleaseHarness;
const base = generateDataset({ seed: 21, showtimes: 240 });

function dataFolder(name: string, dataset: Dataset): string {
  const dir = path.join(root, `data-${name}`);
  if (!existsSync(dir)) writeDataset(dir, dataset);
  return dir;
}

/** The base data with a few showtimes changed: a normal day's update. */
function update(seed: number): Dataset {
  const copy: Dataset = JSON.parse(JSON.stringify(base));
  copy.showtimes = copy.showtimes.filter((_, i) => (i + seed) % 40 !== 0);
  copy.showtimes[seed]!.screenName = `Screen X${seed}`;
  return copy;
}

/** The manifest of the snapshot the history state records as released to production. */
function releasedManifest(): Manifest {
  const { snapshotId } = stateOf(path.join(root, "state-history")).production;
  return readManifest(path.join(root, "state-history", "snapshots", snapshotId));
}
const stateOf = (state: string) => JSON.parse(readFileSync(path.join(state, "state.json"), "utf8"));
const fileOrNone = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "(none)");

beforeAll(() => {
  root = makeTempDir("release");
  harness = makeProject(path.join(root, "history"), "dependencies");
  dataFolder("base", base);
});

let projects = 0;
/** A project folder of the test's own, for tests that run side by side; every package installed for npm run. */
function own(packages: Packages = "dependencies"): ReleaseHarness {
  return makeProject(path.join(root, `project-${++projects}`), packages);
}
afterAll(() => removeDir(root));

describe("a production history", () => {
  const state = () => path.join(root, "state-history");
  const release = (data: string, extra: string[] = [], env: Record<string, string> = {}) =>
    harness.run(["--data", data, "--state", state(), "--prod", ...extra], { ...MORNING, ...env });

  test("the first production release needs --first: without it nothing is built or deployed", async () => {
    const run = await release(dataFolder("base", base));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("holds no earlier production release");
    expect(run.calls).toEqual([]);
    expect(existsSync(path.join(state(), "state.json"))).toBe(false);
  });

  test("a first release builds, runs vercel build, deploys the candidate and records it", async () => {
    const run = await release(dataFolder("base", base), ["--first"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.calls.map((c) => c.args.join(" "))).toEqual([
      "pull --yes --environment=production",
      "build --yes --standalone --prod",
      "deploy --prebuilt --prod",
    ]);
    // The CLI's telemetry is off for every call: a release sends Vercel nothing but the deployment.
    expect(run.calls.map((c) => c.telemetry)).toEqual(["off", "off", "off"]);
    const recorded = stateOf(state()).production;
    expect(run.calls[2]).toMatchObject({ snapshotId: recorded.snapshotId, target: "production", exit: 0 });
    expect(readManifest(path.join(state(), "snapshots", recorded.snapshotId)).snapshotId).toBe(recorded.snapshotId);
    expect(recorded).toMatchObject({ deployedAt: "2026-11-23T06:00:00Z", dropBefore: "2026-11-22T00:00:00Z" });
    expect(recorded.url).toBe(`https://cinema-listings-${recorded.snapshotId.slice(0, 9)}.vercel.app`);
    expect(readdirSync(state()).sort()).toEqual(["snapshots", "state.json"]);
    for (const line of ["build: showtimes before", "built snapshot", "vercel build", "vercel deploy", "done in"])
      expect(run.stdout).toContain(line);
  });

  test(
    "the secrets vercel pull wrote readable by others are made owner-only before vercel build reads " + "them",
    async () => {
      // The fake pull leaves .vercel/.env.production.local at 0644; the build records what it found.
      const run = await release(dataFolder("update-5", update(5)), ["--dry-run"]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.calls[1]).toMatchObject({ args: ["build", "--yes", "--standalone", "--prod"], projectId: "prj_test" });
      expect(run.calls[1]!.envModes).toEqual({ ".env.production.local": "600" });
      expect(run.stdout).toContain(
        "vercel pull: the project's production settings; made owner-only (0600): .vercel/.env.production.local",
      );
    },
  );

  test("the same data again deploys nothing new, and changes nothing", async () => {
    const before = readFileSync(path.join(state(), "state.json"), "utf8");
    const run = await release(dataFolder("base", base), [], { RELEASE_NOW: "2026-11-23T07:30:00Z" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("nothing new to deploy");
    expect(run.calls).toEqual([]);
    expect(readFileSync(path.join(state(), "state.json"), "utf8")).toBe(before);
  });

  test("a diff that removes more than allowed stops before vercel, exit 4, state unchanged", async () => {
    const before = readFileSync(path.join(state(), "state.json"), "utf8");
    const half: Dataset = { ...base, showtimes: base.showtimes.slice(0, 100) };
    const run = await release(dataFolder("half", half));
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/58\.3% of showtimes were removed \(140 of 240\), more than the 20% allowed/);
    expect(run.calls).toEqual([]);
    expect(readFileSync(path.join(state(), "state.json"), "utf8")).toBe(before);
    // Asked for on purpose, the same removal goes through.
    const allowed = await release(dataFolder("half", half), ["--fail-if-removed-over", "60%", "--dry-run"]);
    expect(allowed.code, allowed.stderr).toBe(0);
  });

  test("a failed upload leaves the state as it was; the next run deploys the same candidate", async () => {
    const before = readFileSync(path.join(state(), "state.json"), "utf8");
    const failed = await release(dataFolder("update-1", update(1)), [], { FAKE_VERCEL_FAIL: "deploy" });
    expect(failed.code).toBe(3);
    expect(commandsOf(failed)).toEqual(["pull", "build", "deploy"]);
    expect(failed.stderr).toContain("the state is unchanged");
    expect(readFileSync(path.join(state(), "state.json"), "utf8")).toBe(before);
    const retried = await release(dataFolder("update-1", update(1)));
    expect(retried.code, retried.stderr).toBe(0);
    const deployed = retried.calls.find((c) => c.args[0] === "deploy")!;
    expect(stateOf(state()).production.snapshotId).toBe(deployed.snapshotId);
    // update(1) drops every 40th showtime and renames one screen.
    expect(retried.stdout).toContain("showtimes: 0 added, 6 removed, 1 changed (240 → 234)");
  });

  test(
    "the history carried into the next build is the one that was deployed, not the one whose upload " + "failed",
    async () => {
      const live = releasedManifest();
      const failed = await release(dataFolder("update-3", update(3)), [], { FAKE_VERCEL_FAIL: "deploy" });
      expect(failed.code).toBe(3);
      const unreleased = readManifest(path.join(state(), "candidate"));
      expect(unreleased.history).toEqual({ id: live.history.id, generation: live.history.generation + 1 });
      const next = await release(dataFolder("update-4", update(4)));
      expect(next.code, next.stderr).toBe(0);
      // Carried from the live snapshot: the same chain, one generation on; from the failed one it would be two.
      expect(releasedManifest().history).toEqual({ id: live.history.id, generation: live.history.generation + 1 });
      expect(next.stdout).toContain(`history from snapshot ${live.snapshotId}`);
    },
  );
  test(
    "a preview deploys what production would get, on the production history, and moves only its own " + "record",
    async () => {
      const production = stateOf(state()).production;
      const preview = () => harness.run(["--data", dataFolder("update-2", update(2)), "--state", state()], MORNING);
      const run = await preview();
      expect(run.code, run.stderr).toBe(0);
      expect(run.calls.map((c) => c.args.join(" "))).toEqual([
        "pull --yes --environment=preview",
        "build --yes --standalone",
        "deploy --prebuilt",
      ]);
      const after = stateOf(state());
      expect(after.production).toEqual(production);
      expect(after.preview.snapshotId).toBe(run.calls[2]!.snapshotId);
      expect(run.stdout).toContain(`history from snapshot ${production.snapshotId}`);
      const again = await preview();
      expect(again.stdout).toContain("nothing new to deploy: the last preview release");
      expect(again.calls).toEqual([]);
    },
  );

  test("days later, the showtimes gone by are expired, not removals: the release goes through", async () => {
    // Two days on, everything before 2026-11-24T00:00Z is left out: most of the test data.
    // The data last released (by the history test), two days on.
    const run = await release(dataFolder("update-4", update(4)), [], { RELEASE_NOW: "2026-11-25T12:00:00Z" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/showtimes: 0 added, 0 removed, 0 changed, \d+ expired/);
    expect(stateOf(state()).production).toMatchObject({ dropBefore: "2026-11-24T00:00:00Z" });
  });
});

// Concurrent: each case has its own project folder and state, and most of its time is spent in child processes.
describe.concurrent("what stops a release before vercel build, or before the upload", () => {
  test("invalid data: exit 1, every problem printed, no vercel call", async () => {
    const broken: Dataset = JSON.parse(JSON.stringify(base));
    broken.showtimes[0]!.cinemaId = "nowhere";
    broken.films[0]!.durationMinutes = 0;
    const run = await own().run(
      ["--data", dataFolder("broken", broken), "--state", path.join(root, "s-broken"), "--prod", "--first"],
      MORNING,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('cinemaId refers to cinema "nowhere"');
    expect(run.stderr).toContain("durationMinutes");
    expect(run.stderr).toContain("the data is invalid");
    expect(run.calls).toEqual([]);
  });

  test("an output over the function size limit is not uploaded (exit 3)", async () => {
    const state = path.join(root, "s-oversize");
    const run = await own().run(["--data", dataFolder("base", base), "--state", state, "--prod", "--first"], {
      ...MORNING,
      FAKE_VERCEL_OVERSIZE: "1",
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("its uncompressed size is under 250 MB");
    expect(commandsOf(run)).toEqual(["pull", "build"]);
    expect(existsSync(path.join(state, "state.json"))).toBe(false);
  });

  test("an unlinked folder stops before the build (exit 2)", async () => {
    const owned = own();
    rmSync(path.join(owned.project, ".vercel/project.json"));
    const state = path.join(root, "s-unlinked");
    const run = await owned.run(["--data", dataFolder("base", base), "--prod", "--first", "--state", state], MORNING);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("not linked to a Vercel project");
    expect(run.stdout).not.toContain("built snapshot");
  });

  test("a folder that is not a git checkout stops before the build (exit 2), in one line", async () => {
    const owned = own();
    rmSync(path.join(owned.project, ".git"), { recursive: true });
    const state = path.join(root, "s-not-git");
    const run = await owned.run(["--data", dataFolder("base", base), "--prod", "--first", "--state", state], MORNING);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^release: \S+ is not a git checkout \(or git is not installed\): .*\n$/);
    expect(run.stdout).not.toContain("built snapshot");
    expect(run.calls).toEqual([]);
  });

  test("a state held by a running release is refused (exit 2)", async () => {
    const state = path.join(root, "s-locked");
    mkdirSync(state);
    writeFileSync(path.join(state, "lock"), `${process.pid}\n`);
    const run = await own().run(["--data", dataFolder("base", base), "--state", state], MORNING);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`another release (process ${process.pid})`);
    rmSync(path.join(state, "lock"));
  });
});

describe.concurrent("a dry run", () => {
  test("says what would be uploaded and deploys nothing", async () => {
    const state = path.join(root, "s-dry");
    const run = await own().run(
      ["--data", dataFolder("base", base), "--state", state, "--prod", "--first", "--dry-run"],
      MORNING,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(commandsOf(run)).toEqual(["pull", "build"]);
    expect(run.stdout).toMatch(
      /\nrelease: skipped vercel deploy: a dry run uploads nothing \(it would upload \d+ files, \d+\.\d MB/,
    );
    expect(fileOrNone(path.join(state, "state.json"))).toBe("(none)");
  });

  test("works on a fresh clone with no link and no token: vercel build offline with local settings", async () => {
    const owned = own("installed");
    rmSync(path.join(owned.project, ".vercel"), { recursive: true });
    const state = path.join(root, "s-dry-unlinked");
    // As an operator runs it: npm run release in the clone, its build under tsx, the build command through npm.
    const run = await owned.run(
      ["--data", dataFolder("base", base), "--state", state, "--prod", "--first", "--dry-run"],
      { ...MORNING, VERCEL_TOKEN: "" },
      "npm",
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.calls).toMatchObject([
      {
        args: ["build", "--yes", "--standalone", "--prod"],
        projectId: "local",
        nodeVersion: "24.x",
        telemetry: "off",
        exit: 0,
      },
    ]);
    const lines = run.stdout.split("\n");
    const said = (start: string) => lines.filter((line) => line.startsWith(`release: ${start}`));
    expect(said("dry run of a production release")).toEqual([
      `release: dry run of a production release of ${dataFolder("base", base)}, ` +
        "with no Vercel project linked (.vercel/project.json, or VERCEL_ORG_ID and VERCEL_PROJECT_ID)",
    ]);
    expect(said("skipped")).toEqual([
      "release: skipped vercel pull: no Vercel project is linked (.vercel/project.json, or VERCEL_ORG_ID " +
        "and VERCEL_PROJECT_ID); vercel build runs offline with local settings, as verify:vercel's",
      expect.stringMatching(
        new RegExp(
          String.raw`^release: skipped vercel deploy: a dry run uploads nothing \(it would upload \d+ files, ` +
            String.raw`[\d.]+ MB \(the function [\d.]+ MB with the snapshot's 6 files\)\); \S+ unchanged$`,
        ),
      ),
    ]);
    expect(said("checked .vercel/output: every check passed")).toHaveLength(1);
    expect(fileOrNone(path.join(state, "state.json"))).toBe("(none)");
    expect(existsSync(path.join(owned.project, ".vercel"))).toBe(false);
  });
});
