/**
 * Which files of a data folder the build reads: under the four resource folders, JSON arrays
 * (`.json`) and records one per line (`.ndjson`, or `.jsonl`, its other common name). Every other
 * file there is a problem (a feed saved in another format must not vanish without a word); beside
 * them, markets.json (decision: markets); what else lies beside the resource folders, and hidden
 * files, are not read and are named in the report (decision: what the build reads).
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import type { Problem } from "../report/problems.js";
import { MARKETS_SOURCE } from "./markets-source.js";
import { RESOURCES, type Resource } from "../validate/schemas.js";

export const SOURCE_EXTENSIONS = [".json", ".ndjson", ".jsonl"] as const;

export interface DataFolderListing {
  /** Each resource's source files, sorted, as paths joined to the data folder. */
  sources: Record<Resource, string[]>;
  /** What the build does not read, relative to the data folder ("/" after a folder), sorted. */
  unread: string[];
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Top-level entries other than the resource folders: not read, named once each (a folder with "/"). */
function unreadBeside(dataDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dataDir);
  } catch {
    // No data folder: the load stage reports it as having no source files.
    return [];
  }
  // A link to a folder counts as the folder it leads to (the listing below follows it too).
  const folder = (name: string) => isFolder(path.join(dataDir, name));
  // markets.json is read when it is a file (load/markets-source.ts); a folder by that name is not.
  const isRead = (name: string) =>
    folder(name) ? (RESOURCES as readonly string[]).includes(name) : name === MARKETS_SOURCE;
  return names.filter((name) => !isRead(name)).map((name) => (folder(name) ? `${name}/` : name));
}

/** A hidden file's outermost hidden folder or itself, relative to the data folder: named once, not file by file. */
function hiddenEntry(resource: Resource, relative: string): string {
  const parts = relative.split("/");
  const at = parts.findIndex((part) => part.startsWith("."));
  return `${resource}/${parts.slice(0, at + 1).join("/")}${at < parts.length - 1 ? "/" : ""}`;
}

/** Lists the data folder: each resource's source files in a fixed order, problems for other files, the rest unread. */
export async function listDataFolder(dataDir: string, problems: Problem[]): Promise<DataFolderListing> {
  const sources = {} as Record<Resource, string[]>;
  const unread = new Set(unreadBeside(dataDir));
  for (const resource of RESOURCES) {
    const dir = path.join(dataDir, resource);
    sources[resource] = [];
    // A file by a resource's name is named as not read (unreadBeside), not searched.
    if (!isFolder(dir)) continue;
    const files = await fg("**/*", { cwd: dir, onlyFiles: true, dot: true, followSymbolicLinks: false });
    for (const relative of files.sort()) {
      const file = path.join(dir, relative);
      if (relative.split("/").some((part) => part.startsWith("."))) unread.add(hiddenEntry(resource, relative));
      else if (SOURCE_EXTENSIONS.some((extension) => relative.endsWith(extension))) sources[resource].push(file);
      else
        problems.push({
          code: "unsupported_file",
          file,
          path: "",
          message:
            `is not a source file (.json, .ndjson or .jsonl): rename it if it holds records, ` +
            `or move it out of ${resource}/`,
        });
    }
  }
  return { sources, unread: [...unread].sort() };
}
