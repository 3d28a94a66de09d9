/**
 * The folders a build's swap makes beside the snapshot folder (decision: a build's swap): the new
 * snapshot staged as `<out>.staging-<pid>-<stamp>`, and the old one renamed aside as
 * `<out>.previous-<pid>-<stamp>` for the instant between the swap's two renames. Named here, where
 * the writer and whoever opens the folder after a killed build agree on them.
 */
import path from "node:path";

export type SwapRole = "staging" | "previous";

export interface SwapFolder {
  path: string;
  role: SwapRole;
  /** The build's process. */
  pid: number;
  /** When the build made the name (epoch milliseconds). */
  stampMs: number;
}

/** The folder a build (process `pid`, at `stampMs`) uses beside `target` in `role`. */
export function swapFolderOf(target: string, role: SwapRole, pid: number, stampMs: number): string {
  return `${path.resolve(target)}.${role}-${pid}-${stampMs.toString(36)}`;
}

/** The swap folders of `target` among the names in its parent folder. */
export function swapFoldersAmong(target: string, names: readonly string[]): SwapFolder[] {
  const full = path.resolve(target);
  const prefix = `${path.basename(full)}.`;
  const folders: SwapFolder[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = /^(staging|previous)-([0-9]{1,10})-([0-9a-z]{1,12})$/.exec(name.slice(prefix.length));
    if (!match) continue;
    const [, role, pid, stamp] = match;
    folders.push({
      path: path.join(path.dirname(full), name),
      role: role as SwapRole,
      pid: Number(pid),
      stampMs: Number.parseInt(stamp!, 36),
    });
  }
  return folders;
}
