/**
 * A build killed between the two renames of its swap leaves no snapshot at its `--out`, only the
 * old one aside (layout/swap-folders.ts). Whoever opens the folder next, a server or a build, puts
 * the old one back (decision: a build's swap), so the folder holds the old snapshot or the new
 * one at every instant that counts. A swap folder of a build still running is never touched.
 */
import { existsSync, readdirSync, renameSync } from "node:fs";
import path from "node:path";
import { type SwapFolder, swapFoldersAmong } from "../layout/swap-folders.js";
import { MANIFEST_FILE, MARKETS_INDEX_FILE } from "../primitives/files.js";

/** Whether process `pid` runs (EPERM: it runs as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The swap folders beside `target` of builds that no longer run: what a killed build left. */
export function swapLeftovers(target: string): SwapFolder[] {
  let names: string[];
  try {
    names = readdirSync(path.dirname(path.resolve(target)));
  } catch {
    return [];
  }
  return swapFoldersAmong(target, names).filter((folder) => !isRunning(folder.pid));
}

/** Whether a folder holds what a build writes last: a snapshot's manifest or a multi-market folder's index. */
const isComplete = (folder: string) =>
  existsSync(path.join(folder, MANIFEST_FILE)) || existsSync(path.join(folder, MARKETS_INDEX_FILE));

/**
 * Puts back the snapshot a killed build left aside when `target` is missing: the latest one set
 * aside that holds a manifest, or the index of a multi-market folder (decision: markets). Returns
 * whether it did; never throws (another process may be putting it back at the same moment).
 */
export function restoreInterruptedSwap(target: string): boolean {
  if (existsSync(target)) return false;
  const aside = swapLeftovers(target)
    .filter((folder) => folder.role === "previous" && isComplete(folder.path))
    .sort((a, b) => b.stampMs - a.stampMs)[0];
  if (!aside) return false;
  try {
    renameSync(aside.path, target);
    return true;
  } catch {
    return existsSync(target);
  }
}
