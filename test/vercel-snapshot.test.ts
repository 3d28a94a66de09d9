/**
 * Where a deployment's snapshot comes from (decision: prebuilt releases): vercel.json's build
 * command bundles the release's snapshot when one is named, refuses in a project deployed by
 * releases, and otherwise builds the demo data, so a clone still deploys with a plain
 * `vercel deploy`. Also: nothing of a release or a link is committed or uploaded as source.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { encodeMarketsIndex, marketsIndexId } from "../api/_core/format/layout/markets-index.js";
import { readMarketsIndex } from "../api/_core/format/read/markets-folder.js";
import { readManifest } from "../api/_core/format/read/snapshot.js";
import { makeTempDir, removeDir, ROOT } from "./helpers/build-helpers.js";
import { runEntry } from "./helpers/child-processes.js";
import { makeProject } from "./helpers/release-harness.js";

let root: string;
let project: string;

/** `npm run vercel-snapshot` in the clone, as its bundle (entry-bundles.ts); its build of data/ runs under tsx. */
async function vercelSnapshot(env: Record<string, string>) {
  const { RELEASE_ONLY, RELEASE_SNAPSHOT_ID, ...inherited } = process.env;
  const run = await runEntry("scripts/vercel-snapshot.ts", [], { cwd: project, env: { ...inherited, ...env } });
  return { status: run.code, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(() => {
  root = makeTempDir("vercel-snapshot");
  project = makeProject(root).project;
});
afterAll(() => removeDir(root));

describe("npm run vercel-snapshot", () => {
  test("a project deployed by releases refuses to build data/", async () => {
    const run = await vercelSnapshot({ RELEASE_ONLY: "1" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("this project is deployed with npm run release (RELEASE_ONLY=1");
    expect(existsSync(path.join(project, "snapshot"))).toBe(false);
  });

  test("otherwise it builds the demo data into snapshot/", async () => {
    const run = await vercelSnapshot({});
    expect(run.status, run.stderr).toBe(0);
    expect(readManifest(path.join(project, "snapshot")).counts.showtimes).toBeGreaterThan(0);
  });

  test("with RELEASE_SNAPSHOT_ID it only checks that snapshot/ holds that snapshot", async () => {
    const id = readManifest(path.join(project, "snapshot")).snapshotId;
    const same = await vercelSnapshot({ RELEASE_SNAPSHOT_ID: id, RELEASE_ONLY: "1" });
    expect(same.status, same.stderr).toBe(0);
    expect(same.stdout).toBe(`vercel-snapshot: bundling snapshot ${id}, prepared by npm run release\n`);
    const other = await vercelSnapshot({ RELEASE_SNAPSHOT_ID: "0".repeat(32) });
    expect(other.status).toBe(1);
    expect(other.stderr).toContain(`snapshot/ holds snapshot ${id}, not ${"0".repeat(32)}`);
  });

  test("data of several markets is bundled as built, a release naming it by its index's id", async () => {
    const markets = path.join(project, "data/markets.json");
    const split = [
      { id: "gb", name: "United Kingdom", countries: ["GB"] },
      { id: "de", name: "Germany", countries: ["DE"] },
    ];
    writeFileSync(markets, JSON.stringify(split));
    try {
      const run = await vercelSnapshot({});
      expect(run.status, run.stderr).toBe(0);
      const index = readMarketsIndex(path.join(project, "snapshot"));
      expect(index.markets.map((m) => m.id)).toEqual(["gb", "de"]);
      const id = marketsIndexId(index);
      const released = await vercelSnapshot({ RELEASE_SNAPSHOT_ID: id, RELEASE_ONLY: "1" });
      expect(released.stdout).toBe(
        `vercel-snapshot: bundling markets gb, de (index ${id}), prepared by npm run release\n`,
      );
      const other = await vercelSnapshot({ RELEASE_SNAPSHOT_ID: "0".repeat(32) });
      expect([other.status, other.stderr]).toEqual([
        1,
        expect.stringContaining(`snapshot/ holds markets gb, de (index ${id}), not ${"0".repeat(32)}`),
      ]);
      // The same markets under an index from before the summaries: its GET /markets would answer 503.
      const older = index.markets.map(({ summary: _, ...market }) => market);
      writeFileSync(path.join(project, "snapshot/markets.json"), encodeMarketsIndex({ format: 1, markets: older }));
      const unsummarized = await vercelSnapshot({ RELEASE_SNAPSHOT_ID: id, RELEASE_ONLY: "1" });
      expect([unsummarized.status, unsummarized.stderr]).toEqual([
        1,
        expect.stringContaining("markets.json: is format 1, which does not say what each market holds"),
      ]);
    } finally {
      rmSync(markets);
      rmSync(path.join(project, "snapshot"), { recursive: true });
    }
  });
});

test("vercel.json's build command is the snapshot step, then the gateway secret", () => {
  const config = JSON.parse(readFileSync(path.join(ROOT, "vercel.json"), "utf8"));
  expect(config.buildCommand).toBe("npm run vercel-snapshot && npm run gateway-secret");
});

test("the release state and the Vercel link are never committed, nor uploaded as a deployment's source", () => {
  const files = [".release/state.json", ".release/snapshots/x/manifest.json", ".vercel/project.json"];
  const ignored = spawnSync("git", ["check-ignore", "--no-index", ...files], { cwd: ROOT, encoding: "utf8" });
  expect(ignored.stdout.split("\n").filter(Boolean)).toEqual(files);
  const tracked = spawnSync("git", ["ls-files", ".vercel"], { cwd: ROOT, encoding: "utf8" });
  expect(tracked.stdout).toBe("");
  const vercelignore = readFileSync(path.join(ROOT, ".vercelignore"), "utf8").split("\n");
  for (const entry of ["/.release/", "/ops/", "/snapshot/"]) expect(vercelignore).toContain(entry);
});
