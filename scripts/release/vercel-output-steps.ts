/**
 * Between the candidate and the upload: the candidate goes where vercel.json bundles a snapshot
 * from, and what `vercel build` wrote is checked as `npm run verify:vercel` checks it before
 * anything is uploaded (decision: prebuilt releases).
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { checkVercelOutput, listFiles, type OutputFacts } from "../vercel-output.js";
import { ReleaseStop } from "./snapshot-steps.js";

/** The folder vercel.json's includeFiles and middleware.ts take the snapshot from. */
export const PROJECT_SNAPSHOT = "snapshot";
export const OUTPUT_DIR = ".vercel/output";

/** Hard links where the file system allows (a snapshot's files are never changed in place), else copies. */
function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/**
 * Makes `project`/snapshot the candidate: a full copy beside it, then two renames, so a reader of
 * that folder (a local server) sees the old snapshot or the new one, never a mixture.
 */
export function placeSnapshot(candidate: string, project: string): void {
  const target = path.join(project, PROJECT_SNAPSHOT);
  const staging = `${target}.release-${process.pid}`;
  const old = `${target}.replaced-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  for (const file of listFiles(candidate)) {
    mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
    linkOrCopy(path.join(candidate, file), path.join(staging, file));
  }
  if (existsSync(target)) renameSync(target, old);
  renameSync(staging, target);
  rmSync(old, { recursive: true, force: true });
}

/** The output's checks; any failure stops the release before the upload (exit 3). */
export function checkBuiltOutput(project: string, candidate: string): OutputFacts {
  const { checks, facts } = checkVercelOutput(
    path.join(project, OUTPUT_DIR),
    project,
    path.join(project, "public"),
    candidate,
  );
  const failed = checks.filter((check) => !check.ok);
  if (failed.length > 0) {
    const lines = failed.map((check) => `  ✖ ${check.name} — ${check.detail}`).join("\n");
    throw new ReleaseStop(3, `the output of vercel build failed its checks, so nothing was uploaded:\n${lines}`);
  }
  return facts;
}

export interface UploadSummary {
  files: number;
  bytes: number;
}

/** What `vercel deploy --prebuilt` uploads: the output folder (Vercel skips files it already holds). */
export function summarizeUpload(project: string): UploadSummary {
  const dir = path.join(project, OUTPUT_DIR);
  const files = listFiles(dir);
  return { files: files.length, bytes: files.reduce((sum, file) => sum + statSync(path.join(dir, file)).size, 0) };
}

export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
