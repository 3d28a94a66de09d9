/**
 * Turns a `--from`/`--to` folder into a snapshot to read: a folder with manifest.json is a built
 * snapshot; any other folder is source data, built into a temporary snapshot first.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { LIST_RESOURCES, MANIFEST_FILE, SNAPSHOT_FORMAT, type ListResource } from "../../api/_core/layout.js";
import { createDiskWriter } from "../../build/output-writer.js";
import { sortProblems } from "../../build/problems.js";
import { runBuild } from "../../build/run-build.js";
import { checkPackSize } from "./pack-reader.js";

/** A failure the user can act on; printed as one line, exit status 2. */
export class DiffInputError extends Error {}

export interface OpenedSnapshot {
  dir: string;
  counts: Record<ListResource, number>;
  /** Removes the temporary snapshot, if one was built. */
  close(): void;
}

function readCounts(dir: string, label: string): Record<ListResource, number> {
  let manifest: { format?: unknown; counts?: Record<string, unknown> };
  try {
    manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST_FILE), "utf8"));
  } catch (error) {
    throw new DiffInputError(`${label}: cannot read ${MANIFEST_FILE} (${(error as Error).message})`);
  }
  if (manifest.format !== SNAPSHOT_FORMAT) throw new DiffInputError(`${label}: snapshot format ${String(manifest.format)} is not ${SNAPSHOT_FORMAT}; rebuild it`);
  const counts = {} as Record<ListResource, number>;
  for (const resource of LIST_RESOURCES) {
    const count = manifest.counts?.[resource];
    if (!Number.isSafeInteger(count) || (count as number) < 0) throw new DiffInputError(`${label}: ${MANIFEST_FILE} has no count of ${resource}`);
    counts[resource] = count as number;
    try {
      checkPackSize(dir, resource, counts[resource]);
    } catch (error) {
      throw new DiffInputError(`${label}: ${(error as Error).message}`);
    }
  }
  return counts;
}

/** Builds a data folder into a temporary snapshot (gzip level 1: its bodies are never served). */
async function buildTemporary(dataDir: string, label: string, onStatus: (line: string) => void): Promise<OpenedSnapshot> {
  const work = mkdtempSync(path.join(tmpdir(), "cinema-diff-build-"));
  const dir = path.join(work, "snapshot");
  const remove = () => rmSync(work, { recursive: true, force: true });
  onStatus(`building ${dataDir} into a temporary snapshot`);
  try {
    const result = await runBuild({ dataDir, output: createDiskWriter(dir), gzipLevel: 1 });
    if (!result.ok) {
      const first = sortProblems(result.problems)[0]!;
      const where = first.line !== undefined ? `${first.file}:${first.line}` : first.file;
      const what = first.path === "" ? first.message : `${first.path} ${first.message}`;
      throw new DiffInputError(
        `${label}: ${dataDir} is not valid data (${result.problems.length} problems, the first: ${what} at ${where}); ` +
          `run npm run build -- --data ${dataDir} for the full report`,
      );
    }
    return { dir, counts: readCounts(dir, label), close: remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** Opens one side of the diff; `label` names the option in messages (`--from`). */
export async function openSide(folder: string, label: string, onStatus: (line: string) => void): Promise<OpenedSnapshot> {
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    throw new DiffInputError(`${label}: ${folder} does not exist or cannot be read`);
  }
  if (!isFolder) throw new DiffInputError(`${label}: ${folder} is not a folder`);
  if (existsSync(path.join(folder, MANIFEST_FILE))) return { dir: folder, counts: readCounts(folder, label), close: () => {} };
  return buildTemporary(folder, label, onStatus);
}
