/**
 * What the release tests drive: a checkout as a fresh clone has it (this repository's files, as
 * git tracks them, in a git repository of its own, node_modules linked), linked to a made-up
 * project with the settings a `vercel pull` leaves, with the fake `vercel` (fake-vercel.mjs)
 * first on PATH and its log of calls. A release runs as the bundles of this repository's entries
 * (entry-bundles.ts: the release, its build and diff, the build command's scripts), or, asked
 * `via: "npm"`, as an operator runs it: `npm run release` in the checkout, every step under tsx and
 * vercel.json's build command through npm.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { ROOT } from "./build-helpers.js";
import { bundlesFolder, entryArgs, runProcess } from "./child-processes.js";

export interface VercelCall {
  args: string[];
  /** The folder it ran in. */
  cwd: string;
  /** Whether it ran with VERCEL_TELEMETRY_DISABLED=1. */
  telemetry: "on" | "off";
  exit: number;
  /** For a build: the project it was for, its Node.js setting, and the pulled environment files' modes (octal). */
  projectId?: string;
  nodeVersion?: string;
  envModes?: Record<string, string>;
  /** For a deploy: the snapshot id the upload carried (a multi-market folder's index id), and its target. */
  snapshotId?: string;
  /** For a deploy of markets: each market's snapshot id, as its function bundles it. */
  markets?: Record<string, string>;
  target?: string;
}

export interface ReleaseRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The fake vercel's calls during this run. */
  calls: VercelCall[];
}

/** How a release is started: this repository's bundled entries, or `npm run release` in the checkout. */
export type ReleaseVia = "bundle" | "npm";

export interface ReleaseHarness {
  project: string;
  run(args: string[], env?: Record<string, string>, via?: ReleaseVia): Promise<ReleaseRun>;
}

/** What `vercel link` and `vercel pull` leave in .vercel/project.json: the ids and the project's settings. */
export const TEST_LINK = {
  projectId: "prj_test",
  orgId: "team_test",
  settings: { framework: null, installCommand: "", buildCommand: null, outputDirectory: null, nodeVersion: "24.x" },
};

/**
 * Copies this repository's files as they are now (tracked, or new and not ignored) into a git repository at
 * `project`.
 */
function cloneRepository(project: string, packages: Packages): void {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  for (const file of listed.split("\0").filter(Boolean)) {
    if (!existsSync(path.join(ROOT, file))) continue;
    cpSync(path.join(ROOT, file), path.join(project, file), { recursive: true, verbatimSymlinks: true });
  }
  linkPackages(path.join(project, "node_modules"), packages);
  execFileSync("git", ["init", "--quiet"], { cwd: project });
  execFileSync("git", ["add", "--all"], { cwd: project });
}

/**
 * Which of this repository's installed packages a checkout's node_modules links: all of them, as
 * `npm ci` leaves them (what npm run, tsx and the build of data/ need), or the production
 * dependencies alone, enough for a release run from the bundles (which load their packages from this
 * repository): its working copy reproduces a folder of links either way, and a link costs a
 * millisecond of CPU to make, twice per release for each of the 480 installed.
 */
export type Packages = "installed" | "dependencies";

/**
 * node_modules as a folder of links to this repository's installed packages. A release's working
 * copy reproduces links as links, so each release the tests run takes a moment for it, where the
 * installed tree's 34,000 files took seconds of hard links (and of removal) every time (the release
 * tests' CPU went down by a fifth). The hard links themselves are tested on a tree of their own
 * (release-working-folders.test.ts); nothing writes into a working copy's node_modules. A real
 * `vercel build` would bundle these links (linkInstalledTree is for it).
 */
function linkPackages(modules: string, packages: Packages): void {
  const installed = path.join(ROOT, "node_modules");
  const { dependencies } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  // A scoped package's link is its scope's folder.
  const names =
    packages === "installed"
      ? readdirSync(installed)
      : [...new Set(Object.keys(dependencies).map((name) => name.split("/")[0]!))];
  mkdirSync(modules);
  for (const name of names) symlinkSync(path.join(installed, name), path.join(modules, name));
}

/**
 * The checkout's node_modules made one link to this repository's installed tree, which a working
 * copy follows and hard-links (34,000 files, seconds), as it does an installed node_modules: what a
 * real `vercel build` needs, since it bundles a package that is a link out of the project as that
 * link, which the output checks refuse (it would be deployed dangling).
 */
export function linkInstalledTree(project: string): void {
  const modules = path.join(project, "node_modules");
  rmSync(modules, { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules"), modules);
}

/**
 * The fake `vercel` where npm run finds the pinned CLI, in node_modules/.bin (npm run puts that
 * first on PATH): a folder of links to the installed commands (those of the packages linked) but that one.
 */
function installFakeVercel(project: string, fake: string, packages: Packages): void {
  const installed = path.join(ROOT, "node_modules/.bin");
  const bin = path.join(project, "node_modules/.bin");
  rmSync(bin, { recursive: true, force: true });
  mkdirSync(bin);
  for (const name of packages === "installed" ? readdirSync(installed) : ["vercel"])
    symlinkSync(name === "vercel" ? fake : path.join(installed, name), path.join(bin, name));
}

/**
 * A checkout under `root`, linked to a made-up project, with its own snapshot/, generated/, .vercel/,
 * and the packages asked for (a release `via: "npm"` needs them all).
 */
export function makeProject(root: string, packages: Packages = "installed"): ReleaseHarness {
  const project = path.join(root, "project");
  cloneRepository(project, packages);
  mkdirSync(path.join(project, ".vercel"), { recursive: true });
  writeFileSync(path.join(project, ".vercel/project.json"), JSON.stringify(TEST_LINK));
  const bin = path.join(root, "bin");
  mkdirSync(bin, { recursive: true });
  copyFileSync(path.join(ROOT, "test/helpers/fake-vercel.mjs"), path.join(bin, "vercel"));
  chmodSync(path.join(bin, "vercel"), 0o755);
  installFakeVercel(project, path.join(bin, "vercel"), packages);
  const log = path.join(root, "vercel-calls.ndjson");
  const run = (args: string[], env: Record<string, string> = {}, via: ReleaseVia = "bundle") => {
    if (via === "npm" && packages !== "installed") throw new Error("npm run release needs every installed package");
    return runRelease({ project, bin, log }, args, env, via);
  };
  return { project, run };
}

function readCalls(log: string): VercelCall[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as VercelCall);
}

async function runRelease(
  where: { project: string; bin: string; log: string },
  args: string[],
  env: Record<string, string>,
  via: ReleaseVia,
): Promise<ReleaseRun> {
  const before = readCalls(where.log).length;
  // Nothing from the test runner's own environment decides which project or clock a release sees.
  const {
    VERCEL_ORG_ID,
    VERCEL_PROJECT_ID,
    VERCEL_TOKEN,
    RELEASE_NOW,
    RELEASE_ONLY,
    RELEASE_SNAPSHOT_ID,
    ...inherited
  } = process.env;
  const childEnv = {
    ...inherited,
    PATH: `${where.bin}${path.delimiter}${process.env.PATH}`,
    FAKE_VERCEL_LOG: where.log,
    ...(via === "bundle" ? { FAKE_VERCEL_BUNDLES: bundlesFolder() } : {}),
    ...env,
  };
  const [command, commandArgs] =
    via === "npm"
      ? ["npm", ["run", "release", "--", ...args]]
      : [process.execPath, [...entryArgs("scripts/release.ts"), ...args]];
  const run = await runProcess(command, commandArgs, { cwd: where.project, env: childEnv });
  return { code: run.code ?? 1, stdout: run.stdout, stderr: run.stderr, calls: readCalls(where.log).slice(before) };
}

/** The commands of a run's vercel calls, such as ["pull", "build", "deploy"]. */
export function commandsOf(run: ReleaseRun): string[] {
  return run.calls.map((call) => call.args[0]!);
}
