/**
 * A working copy of the checkout for `vercel build` (decision: prebuilt releases): a project root
 * of its own, because vercel.json bundles snapshot/** and generated/ relative to the root and
 * `vercel build` writes .vercel/output there. `npm run release` and `npm run verify:vercel` build
 * in one, so the checkout's snapshot/ (which a running `npm start` may serve), generated/ and
 * .vercel/ are never written. It holds the files git tracks, copied as they are in the checkout,
 * and node_modules as hard links: the function's dependencies must be real files inside the root,
 * since `vercel build` traces no file outside it (a symlinked node_modules is bundled as a
 * dangling link). node_modules/.cache is left out: tools keep caches there (bundlers', a Node.js a
 * script installed), no package, and a tool writing its cache in place would write through a hard
 * link into the checkout's.
 */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
} from "node:fs";
import path from "node:path";

const MODULES = "node_modules";
/** node_modules' folder of tools' caches (the convention find-cache-dir and its users follow). */
const CACHES = ".cache";

/** The checkout cannot be copied (not a git checkout, or git missing): one line for the operator. */
export class WorkingCopyError extends Error {}

/** What a working copy was made of. */
export interface WorkingCopy {
  /** The checkout's files copied (git's tracked files present in the checkout). */
  files: number;
  /** Whether node_modules could be hard-linked (false: copied, the checkout being on another file system). */
  linked: boolean;
}

/** The files git tracks in the checkout, as relative paths (new files count once `git add`ed). */
export function listTrackedFiles(checkout: string): string[] {
  let listed: string;
  try {
    listed = execFileSync("git", ["ls-files", "-z"], {
      cwd: checkout,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch {
    throw new WorkingCopyError(
      `${checkout} is not a git checkout (or git is not installed): the build runs on a copy of the files git ` +
        "tracks, so release and verify from a clone of the repository",
    );
  }
  const files = listed.split("\0").filter(Boolean);
  // Inside another repository that tracks nothing here: the same mistake, said the same way.
  if (files.length === 0) throw new WorkingCopyError(`${checkout} is not a git checkout: git tracks no file in it`);
  return files;
}

/** Hard-links one file, or copies it where a link cannot be made (another file system); true if linked. */
export function linkOrCopy(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch {
    copyFileSync(from, to);
    return false;
  }
}

/**
 * Reproduces a folder tree but for the names in `leaveOut` at its top: folders made, files
 * hard-linked, symbolic links as they are. Each folder is made new (an existing one is an error),
 * so nothing is ever written through a link into the tree being reproduced.
 */
function linkTree(from: string, to: string, leaveOut: string[] = []): boolean {
  let linked = true;
  mkdirSync(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (leaveOut.includes(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linked = linkTree(source, target) && linked;
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (entry.isFile()) linked = linkOrCopy(source, target) && linked;
  }
  return linked;
}

/**
 * Makes `dir` (new, or empty) a working copy of `checkout`: owner-only, since a `vercel
 * pull` later writes the project's secrets into it.
 */
export function makeWorkingCopy(checkout: string, dir: string, files = listTrackedFiles(checkout)): WorkingCopy {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let copied = 0;
  for (const file of files) {
    const source = path.join(checkout, file);
    // A tracked file deleted in the checkout is not built, as it would not be after a commit;
    // node_modules (were it tracked, as a link) is reproduced below.
    if (!existsSync(source) || file.split("/")[0] === MODULES) continue;
    cpSync(source, path.join(dir, file), { recursive: true, verbatimSymlinks: true });
    copied++;
  }
  const modules = path.join(checkout, MODULES);
  const linked = existsSync(modules) ? linkTree(realpathSync(modules), path.join(dir, MODULES), [CACHES]) : true;
  return { files: copied, linked };
}
