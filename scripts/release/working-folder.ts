/**
 * Where a release runs `vercel pull`, `vercel build` and `vercel deploy`: a working copy of the
 * checkout in `<state>/work` (scripts/vercel/working-copy.ts), never the checkout itself, whose snapshot/
 * a running server may be serving (decision: prebuilt releases). Under the state folder it is the
 * release lock's, and on the candidate's file system, so the snapshot goes in as hard links. It is
 * removed when the release ends, whatever the outcome: a pull writes the project's secrets there,
 * and the state folder may be kept elsewhere (the Actions cache).
 */
import { chmodSync, existsSync, lstatSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { copyProjectLink, writeLocalSettings } from "../vercel/project.js";
import { makeWorkingCopy, type WorkingCopy } from "../vercel/working-copy.js";
import { placeSnapshot } from "./vercel-output-steps.js";

const WORK = "work";

/** The release's working folder for the state `stateDir`. */
export function workingFolder(stateDir: string): string {
  return path.resolve(stateDir, WORK);
}

export interface WorkingFolderRequest {
  checkout: string;
  stateDir: string;
  /** The checkout's tracked files, listed when the release began. */
  files: string[];
  /** Whether a Vercel project is linked; if not, the build uses the local settings. */
  linked: boolean;
  candidate: string;
}

/** Makes the working folder afresh, with the project's link (or local settings) and the candidate in snapshot/. */
export function prepareWorkingFolder(request: WorkingFolderRequest): WorkingCopy {
  const dir = workingFolder(request.stateDir);
  removeWorkingFolder(request.stateDir);
  const copy = makeWorkingCopy(request.checkout, dir, request.files);
  if (!request.linked) writeLocalSettings(dir);
  else copyProjectLink(request.checkout, dir);
  placeSnapshot(request.candidate, dir);
  return copy;
}

export function removeWorkingFolder(stateDir: string): void {
  rmSync(workingFolder(stateDir), { recursive: true, force: true });
}

/**
 * Makes the environment files `vercel pull` wrote (.vercel/.env.<target>.local: the project's
 * secrets) owner-only where they were not; returns the names it changed.
 */
export function tightenPulledSecrets(dir: string): string[] {
  const vercelDir = path.join(dir, ".vercel");
  const tightened: string[] = [];
  if (!existsSync(vercelDir)) return tightened;
  for (const name of readdirSync(vercelDir)) {
    const file = path.join(vercelDir, name);
    const stat = lstatSync(file);
    if (!name.startsWith(".env") || !stat.isFile() || (stat.mode & 0o077) === 0) continue;
    chmodSync(file, 0o600);
    tightened.push(`.vercel/${name}`);
  }
  return tightened;
}
