/**
 * Project settings for `vercel build` in a working copy (scripts/vercel/working-copy.ts; decision:
 * prebuilt releases). `vercel build` reads them from .vercel/project.json, the file `vercel link`
 * writes and `vercel pull` fills; a committed one would name a project that does not exist and
 * stand in the way of a real link, so .vercel/ is not committed, and a checkout with no project
 * linked builds with the local settings below, written into the working copy only.
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export const PROJECT_FILE = ".vercel/project.json";

/** What an unlinked build uses: no real project, nothing fetched; Node.js 24 (decision: Node.js versions). */
export const LOCAL_PROJECT = {
  projectId: "local",
  orgId: "local",
  settings: {
    framework: null,
    installCommand: "",
    buildCommand: null,
    outputDirectory: null,
    devCommand: null,
    rootDirectory: null,
    nodeVersion: "24.x",
  },
};

/** Writes the local settings into a working copy: an unlinked build's, which fetches nothing. */
export function writeLocalSettings(work: string): void {
  const file = path.join(work, PROJECT_FILE);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(LOCAL_PROJECT, null, 2)}\n`);
}

/**
 * Gives a working copy the checkout's link (its .vercel/project.json: the ids and the settings a
 * pull left), if it has one; never the pulled environment files, which hold the project's secrets.
 */
export function copyProjectLink(checkout: string, work: string): boolean {
  const file = path.join(checkout, PROJECT_FILE);
  if (!existsSync(file)) return false;
  mkdirSync(path.dirname(path.join(work, PROJECT_FILE)), { recursive: true, mode: 0o700 });
  copyFileSync(file, path.join(work, PROJECT_FILE));
  return true;
}
