/**
 * `npm run release` and `npm run verify:vercel` work in folders of their own (decision: prebuilt
 * releases): a server running on the checkout's snapshot/ answers the same bytes after a release
 * (deployed, failed, dry run) and after verify:vercel, and the checkout's snapshot/, generated/
 * and .vercel/ are as they were, file for file.
 */
import { createHash, randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { request } from "node:http";
import type { Server } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { startServer } from "../scripts/server/local-server.js";
import { listTrackedFiles, makeWorkingCopy } from "../scripts/vercel/working-copy.js";
import { makeTempDir, removeDir, runTsxScript } from "./helpers/build-helpers.js";
import { generateDataset, writeDataset } from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";
import { commandsOf, linkInstalledTree, makeProject, type ReleaseHarness } from "./helpers/release-harness.js";
import { scaled } from "./helpers/deadlines.js";

const MORNING = { RELEASE_NOW: "2026-11-23T06:00:00Z" };
/** The folders of the checkout that a server, a link and a build of the checkout's own keep. */
const CHECKOUT_FOLDERS = ["snapshot", "generated", ".vercel"];

let root: string;
let harness: ReleaseHarness;
let server: Server;
let base: string;
let releaseData: string;
let before: { answers: string[]; folders: Record<string, string> };

/** Every entry under the checkout's folders: its kind, mode and, for a file, its SHA-256. */
function describeFolders(): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const folder of CHECKOUT_FOLDERS) {
    const dir = path.join(harness.project, folder);
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      const full = path.join(entry.parentPath, entry.name);
      const stat = lstatSync(full);
      const mode = (stat.mode & 0o777).toString(8);
      const what = entry.isFile()
        ? createHash("sha256").update(readFileSync(full)).digest("hex")
        : entry.isSymbolicLink()
          ? `-> ${readlinkSync(full)}`
          : "folder";
      entries[path.relative(harness.project, full)] = `${mode} ${what}`;
    }
  }
  return entries;
}

/** The raw bytes of a GET, as status line, ETag and body. */
function get(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const auth = { authorization: `Bearer ${KEYS.bulk}`, "accept-encoding": "identity" };
    request(`${base}${url}`, { headers: auth }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve(`${res.statusCode} ${res.headers.etag}\n${Buffer.concat(chunks).toString("utf8")}`));
    })
      .on("error", reject)
      .end();
  });
}

/** What the server answers for a page of each list, a record, the changes feed and its health. */
async function answers(): Promise<string[]> {
  const urls = ["/healthz", "/v1/showtimes?limit=100", "/v1/cinemas", "/v1/films", "/v1/attributes"];
  const pages = await Promise.all([...urls, "/v1/changes?limit=5000"].map(get));
  const first = JSON.parse(pages[1]!.slice(pages[1]!.indexOf("\n") + 1)).data[0].id as string;
  return [...pages, await get(`/v1/showtimes/${encodeURIComponent(first)}`)];
}

beforeAll(async () => {
  root = makeTempDir("working-folders");
  harness = makeProject(root, "dependencies");
  const project = harness.project;
  // The checkout as a developer has it: a snapshot built into snapshot/ (as npm run build -- --out
  // snapshot does) and served, a gateway secret, the link and the secrets a vercel pull left.
  const served = path.join(root, "served-data");
  writeDataset(served, generateDataset({ seed: 5, showtimes: 120 }));
  const built = await runBuild({ dataDir: served, output: createDiskWriter(path.join(project, "snapshot")) });
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  writeFiles(project, {
    "generated/gateway-secret": `${randomBytes(32).toString("hex")}\n`,
    ".vercel/.env.production.local": 'ACCESS_JSON="{}"\n',
  });
  releaseData = path.join(root, "release-data");
  writeDataset(releaseData, generateDataset({ seed: 21, showtimes: 240 }));
  const started = await startServer({
    snapshotDir: path.join(project, "snapshot"),
    accessFile: writeAccessFile(root),
    port: 0,
    // Every request looks at the folder again, so a snapshot swapped under it shows at once.
    snapshots: new SnapshotSource(path.join(project, "snapshot")),
    now: () => TEST_NOW,
    onError: () => {},
  });
  server = started.server;
  base = started.url;
  before = { answers: await answers(), folders: describeFolders() };
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  removeDir(root);
});

/** Owner-only files, as the gateway secret and a pull's secrets are written. */
function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text, { mode: 0o600 });
  }
}

async function expectCheckoutUntouched(): Promise<void> {
  expect(await answers()).toEqual(before.answers);
  expect(describeFolders()).toEqual(before.folders);
}

test.each([
  ["a dry run", ["--dry-run"], {}, 0, ["pull", "build"]],
  ["a dry run whose vercel build fails", ["--dry-run"], { FAKE_VERCEL_FAIL: "build" }, 3, ["pull", "build"]],
  ["a release whose upload fails", [], { FAKE_VERCEL_FAIL: "deploy" }, 3, ["pull", "build", "deploy"]],
  ["a release that deploys", [], {}, 0, ["pull", "build", "deploy"]],
])(
  "%s leaves the checkout's snapshot/, generated/ and .vercel/ as they were",
  async (_name, extra, env, code, calls) => {
    const state = path.join(root, "state");
    const run = await harness.run(["--data", releaseData, "--state", state, "--prod", "--first", ...extra], {
      ...MORNING,
      ...env,
    });
    expect(run.code, run.stderr).toBe(code);
    expect(commandsOf(run)).toEqual(calls);
    for (const call of run.calls) expect(call.cwd).not.toBe(harness.project);
    await expectCheckoutUntouched();
  },
);

test("verify:vercel leaves the checkout's snapshot/, generated/ and .vercel/ as they were", {
  timeout: scaled(240_000),
}, async () => {
  // The real pinned CLI, offline, with the checkout's own copy of this repository's scripts, on
  // packages it bundles as files (the releases above ran the fake CLI on a node_modules of links).
  linkInstalledTree(harness.project);
  const run = await runTsxScript(path.join(harness.project, "scripts/verify-vercel.ts"), [], { cwd: harness.project });
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toContain("verify:vercel: OK");
  await expectCheckoutUntouched();
});

test(
  "a working copy holds the tracked files as they are, and node_modules as hard links but for its caches, " +
    "writing nothing through a link",
  () => {
    const checkout = path.join(root, "small-checkout");
    const modules = path.join(root, "installed-modules");
    // Tools' caches (a Node.js a tool installed there, a bundler's) are no package.
    writeFiles(modules, { "dep/index.js": "export {};\n", ".cache/node-24/bin/node": "#!/bin/sh\n" });
    symlinkSync("dep/index.js", path.join(modules, "main.js"));
    writeFiles(checkout, { "vercel.json": "{}", "api/v1.ts": "// v1\n", "gone.ts": "", "untracked.ts": "" });
    // node_modules a link to the installed folder, and tracked, as .gitignore's "node_modules/" does not match a link.
    symlinkSync(modules, path.join(checkout, "node_modules"));
    execFileSync("git", ["init", "--quiet"], { cwd: checkout });
    execFileSync("git", ["add", "vercel.json", "api/v1.ts", "gone.ts", "node_modules"], { cwd: checkout });
    rmSync(path.join(checkout, "gone.ts"));
    writeFileSync(path.join(checkout, "api/v1.ts"), "// v1, changed and not committed\n");
    expect(listTrackedFiles(checkout).sort()).toEqual(["api/v1.ts", "gone.ts", "node_modules", "vercel.json"]);
    const installed = readdirSync(modules, { recursive: true }).sort();

    const work = path.join(root, "small-work");
    expect(makeWorkingCopy(checkout, work)).toEqual({ files: 2, linked: true });
    expect(readFileSync(path.join(work, "api/v1.ts"), "utf8")).toBe("// v1, changed and not committed\n");
    expect(existsSync(path.join(work, "gone.ts"))).toBe(false);
    expect(existsSync(path.join(work, "untracked.ts"))).toBe(false);
    expect(lstatSync(path.join(work, "node_modules")).isDirectory()).toBe(true);
    expect(statSync(path.join(work, "node_modules/dep/index.js")).ino).toBe(
      statSync(path.join(modules, "dep/index.js")).ino,
    );
    expect(readlinkSync(path.join(work, "node_modules/main.js"))).toBe("dep/index.js");
    expect(readdirSync(path.join(work, "node_modules")).sort()).toEqual(["dep", "main.js"]);
    expect((statSync(work).mode & 0o777).toString(8)).toBe("700");
    expect(readdirSync(modules, { recursive: true }).sort()).toEqual(installed);
  },
);

test("a folder that is not a git checkout cannot be copied: one line that says so", () => {
  const plain = path.join(root, "not-a-checkout");
  writeFiles(plain, { "vercel.json": "{}" });
  expect(() => listTrackedFiles(plain)).toThrow(/^\S+ is not a git checkout \(or git is not installed\): /);
});
