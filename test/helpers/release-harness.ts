/**
 * What the release tests drive: a Vercel project folder made of this repository's own files (its
 * vercel.json, package.json and scripts, so vercel.json's build command runs for real), linked to a
 * made-up project, with the fake `vercel` (fake-vercel.mjs) first on PATH and its log of calls.
 */
import { execFile } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./build-helpers.js";

const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const RELEASE_ENTRY = path.join(ROOT, "scripts/release.ts");

export interface VercelCall {
  args: string[];
  exit: number;
  /** For a deploy: the snapshot id the upload carried, and its target. */
  snapshotId?: string;
  target?: string;
}

export interface ReleaseRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The fake vercel's calls during this run. */
  calls: VercelCall[];
}

export interface ReleaseHarness {
  project: string;
  run(args: string[], env?: Record<string, string>): Promise<ReleaseRun>;
}

/** A project folder under `root` with the repository's code linked in and its own snapshot/, generated/, .vercel/. */
export function makeProject(root: string): ReleaseHarness {
  const project = path.join(root, "project");
  mkdirSync(path.join(project, ".vercel"), { recursive: true });
  for (const name of ["node_modules", "scripts", "api", "build", "data"])
    symlinkSync(path.join(ROOT, name), path.join(project, name));
  for (const name of ["package.json", "vercel.json", "tsconfig.json"])
    copyFileSync(path.join(ROOT, name), path.join(project, name));
  cpSync(path.join(ROOT, "public"), path.join(project, "public"), { recursive: true });
  writeFileSync(
    path.join(project, ".vercel/project.json"),
    JSON.stringify({ projectId: "prj_test", orgId: "team_test" }),
  );
  const bin = path.join(root, "bin");
  mkdirSync(bin, { recursive: true });
  copyFileSync(path.join(ROOT, "test/helpers/fake-vercel.mjs"), path.join(bin, "vercel"));
  chmodSync(path.join(bin, "vercel"), 0o755);
  const log = path.join(root, "vercel-calls.ndjson");
  const run = (args: string[], env: Record<string, string> = {}) => runRelease(project, bin, log, args, env);
  return { project, run };
}

function readCalls(log: string): VercelCall[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as VercelCall);
}

function runRelease(
  project: string,
  bin: string,
  log: string,
  args: string[],
  env: Record<string, string>,
): Promise<ReleaseRun> {
  const before = readCalls(log).length;
  // Nothing from the test runner's own environment decides which project or clock a release sees.
  const { VERCEL_ORG_ID, VERCEL_PROJECT_ID, RELEASE_NOW, RELEASE_ONLY, RELEASE_SNAPSHOT_ID, ...inherited } =
    process.env;
  const childEnv = { ...inherited, PATH: `${bin}${path.delimiter}${process.env.PATH}`, FAKE_VERCEL_LOG: log, ...env };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", TSX_LOADER, RELEASE_ENTRY, ...args],
      { cwd: project, env: childEnv, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: number }).code ?? 1) : 0;
        resolve({ code, stdout, stderr, calls: readCalls(log).slice(before) });
      },
    );
  });
}

/** The commands of a run's vercel calls, such as ["pull", "build", "deploy"]. */
export function commandsOf(run: ReleaseRun): string[] {
  return run.calls.map((call) => call.args[0]!);
}
