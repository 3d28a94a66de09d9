/**
 * Project settings for `vercel build` where no Vercel project is linked (decision: prebuilt
 * releases). `vercel build` reads them from .vercel/project.json, the file `vercel link` writes;
 * a committed one would name a project that does not exist and stand in the way of a real link,
 * so .vercel/ is not committed and `npm run verify:vercel` writes these settings only for its
 * build, removing them after. A linked checkout builds with its own project's settings.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
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

/** Runs `fn` with project settings in place: the linked project's, or the local ones for the time of the call. */
export function withProjectSettings<T>(root: string, fn: (source: "linked" | "local") => T): T {
  const file = path.join(root, PROJECT_FILE);
  if (existsSync(file)) return fn("linked");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(LOCAL_PROJECT, null, 2)}\n`);
  try {
    return fn("local");
  } finally {
    rmSync(file, { force: true });
  }
}
