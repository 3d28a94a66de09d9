/**
 * Between the candidate and the upload, in the release's working folder: the candidate goes where
 * vercel.json bundles a snapshot from, and what `vercel build` wrote is checked as `npm run
 * verify:vercel` checks it before anything is uploaded (decision: prebuilt releases).
 */
import { mkdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { checkVercelOutput, listFiles, type OutputFacts } from "../vercel/output.js";
import { linkOrCopy } from "../vercel/working-copy.js";
import { ReleaseStop } from "./snapshot-steps.js";

/** The folder vercel.json's includeFiles and middleware.ts take the snapshot from. */
export const PROJECT_SNAPSHOT = "snapshot";
export const OUTPUT_DIR = ".vercel/output";

/**
 * Puts the candidate in the working folder's snapshot/, where vercel.json bundles it from: hard
 * links where the file system allows (a snapshot's files are never changed in place).
 */
export function placeSnapshot(candidate: string, workingFolder: string): void {
  const target = path.join(workingFolder, PROJECT_SNAPSHOT);
  rmSync(target, { recursive: true, force: true });
  for (const file of listFiles(candidate)) {
    mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    linkOrCopy(path.join(candidate, file), path.join(target, file));
  }
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
