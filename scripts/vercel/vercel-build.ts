/**
 * `vercel build` as `npm run verify:vercel` runs it, and what it and a release do to the output
 * right after (decision: gateway secret): the function's and the middleware's files made 0644
 * (0755 if executable), their folders 0755. The CLI writes what it bundles with the modes the umask
 * leaves, so under an owner-only umask (077) both bundles, the gateway secret included, were 0600:
 * unreadable to a platform that runs them as another user, and refused by the output's modes check
 * (output-modes.ts) minutes later.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, chmodSync, existsSync, lstatSync, readdirSync, renameSync, type Stats } from "node:fs";
import path from "node:path";
import { splitFunctionByMarket } from "./market-functions.js";
import { FUNCTION_DIR, MIDDLEWARE_DIR } from "./output-layout.js";

const FILE_MODE = 0o644;
const EXECUTABLE_MODE = 0o755;
const FOLDER_MODE = 0o755;

/** The mode an entry of a bundle gets; undefined for a link, never changed through it (its target is checked). */
function plainModeOf(stats: Stats): number | undefined {
  if (stats.isDirectory()) return FOLDER_MODE;
  if (stats.isFile()) return stats.mode & 0o100 ? EXECUTABLE_MODE : FILE_MODE;
  return undefined;
}

/** Sets `file`'s mode; a file with other names (hard links) is first made a copy, so only the output changes. */
function setMode(file: string, stats: Stats, mode: number): void {
  if (stats.isFile() && stats.nlink > 1) {
    const copy = `${file}.${process.pid}.copy`;
    copyFileSync(file, copy);
    renameSync(copy, file);
  }
  chmodSync(file, mode);
}

/** Gives `entry` and everything under it its plain mode; pushes what changed, relative to `root`. */
function openTree(root: string, entry: string, changed: string[]): void {
  const stats = lstatSync(entry);
  const mode = plainModeOf(stats);
  if (mode === undefined) return;
  if ((stats.mode & 0o777) !== mode) {
    setMode(entry, stats, mode);
    changed.push(path.relative(root, entry).split(path.sep).join("/"));
  }
  if (stats.isDirectory()) for (const name of readdirSync(entry)) openTree(root, path.join(entry, name), changed);
}

/**
 * Makes every file and folder of the function and the middleware in `outputDir` readable by other
 * users, whatever the umask `vercel build` ran under; returns what it changed (paths relative to
 * the output, sorted), nothing when the build left them so.
 */
export function makePiecesReadable(outputDir: string): string[] {
  const changed: string[] = [];
  for (const piece of [FUNCTION_DIR, MIDDLEWARE_DIR]) {
    const dir = path.join(outputDir, piece);
    if (existsSync(dir)) openTree(outputDir, dir, changed);
  }
  return changed.sort();
}

/**
 * What follows `vercel build` on its output, for verify:vercel and a release alike: the bundles made
 * readable, then the function split per market when the bundled snapshot has markets
 * (market-functions.ts; copies keep the modes just set). Returns what was made readable.
 */
export function finishOutput(outputDir: string, snapshotDir: string): string[] {
  const opened = makePiecesReadable(outputDir);
  splitFunctionByMarket(outputDir, snapshotDir);
  return opened;
}

/** What `makePiecesReadable` did, as a clause of a build's line ("" when nothing). */
export function describeOpened(changed: string[]): string {
  if (changed.length === 0) return "";
  const what = `${changed.length} files and folders of the bundles`;
  return `; made readable by other users (0644, executables and folders 0755): ${what}`;
}

export type VercelBuildOutcome = { ok: true; opened: string[] } | { ok: false; code: number; message: string };

/**
 * `vercel build` with the project's pinned CLI (node_modules/.bin/vercel in `work`), then the
 * bundles' modes made plain; dependencies are already installed, so no builder installs any.
 */
export function runVercelBuild(work: string): VercelBuildOutcome {
  const result = spawnSync(path.join(work, "node_modules/.bin/vercel"), ["build", "--yes", "--standalone"], {
    cwd: work,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    // VERCEL_INSTALL_COMPLETED: what Vercel's build image sets after its own install; without it the
    // Node builder runs `npm install` again, which needs the network.
    env: {
      ...process.env,
      VERCEL_TELEMETRY_DISABLED: "1",
      VERCEL_INSTALL_COMPLETED: "1",
      NO_UPDATE_NOTIFIER: "1",
      FORCE_COLOR: "0",
    },
  });
  if (result.error)
    return {
      ok: false,
      code: 2,
      message: `verify:vercel: cannot run the vercel CLI (${result.error.message}); run npm ci first\n`,
    };
  if (result.status !== 0)
    return {
      ok: false,
      code: 1,
      message:
        `${result.stdout}${result.stderr}\n` +
        `verify:vercel: vercel build failed (exit ${result.status ?? result.signal})\n`,
    };
  return { ok: true, opened: finishOutput(path.join(work, ".vercel/output"), path.join(work, "snapshot")) };
}
