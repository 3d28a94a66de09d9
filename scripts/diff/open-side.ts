/**
 * Turns a `--from`/`--to` folder into a snapshot to read: a folder with manifest.json is a built
 * snapshot; any other folder is source data, built into a temporary snapshot first.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SnapshotError } from "../../api/_core/format/primitives/errors.js";
import { MANIFEST_FILE } from "../../api/_core/format/primitives/files.js";
import { readManifest, Snapshot } from "../../api/_core/format/read/snapshot.js";
import { createDiskWriter } from "../../build/write/output-writer.js";
import { sortProblems } from "../../build/report/problems.js";
import { runBuild } from "../../build/run-build.js";

/** A failure the user can act on; printed as one line, exit status 2. */
export class DiffInputError extends Error {}

export interface OpenedSnapshot {
  snapshot: Snapshot;
  /** Closes the snapshot and removes it, if it was built for the diff. */
  close(): void;
}

/** The diff walks whole lists: a cache that holds every record block keeps it to one read per block. */
const DIFF_BUDGETS = { pageBytes: 64 * 2 ** 20, blockBytes: 256 * 2 ** 20 };

function openSnapshot(dir: string, label: string): Snapshot {
  try {
    return new Snapshot(readManifest(dir), dir, DIFF_BUDGETS);
  } catch (error) {
    if (error instanceof SnapshotError) throw new DiffInputError(`${label}: ${error.message}`);
    throw error;
  }
}

/** Builds a data folder into a temporary snapshot (gzip level 1: its bodies are never served). */
async function buildTemporary(
  dataDir: string,
  label: string,
  onStatus: (line: string) => void,
): Promise<OpenedSnapshot> {
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
        `${label}: ${dataDir} is not valid data ` +
          `(${result.problems.length} problems, the first: ${what} at ${where}); ` +
          `run npm run build -- --data ${dataDir} for the full report`,
      );
    }
    const snapshot = openSnapshot(dir, label);
    return {
      snapshot,
      close: () => {
        snapshot.close();
        remove();
      },
    };
  } catch (error) {
    remove();
    throw error;
  }
}

/** Opens one side of the diff; `label` names the option in messages (`--from`). */
export async function openSide(
  folder: string,
  label: string,
  onStatus: (line: string) => void,
): Promise<OpenedSnapshot> {
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    throw new DiffInputError(`${label}: ${folder} does not exist or cannot be read`);
  }
  if (!isFolder) throw new DiffInputError(`${label}: ${folder} is not a folder`);
  if (existsSync(path.join(folder, MANIFEST_FILE))) {
    const snapshot = openSnapshot(folder, label);
    return { snapshot, close: () => snapshot.close() };
  }
  return buildTemporary(folder, label, onStatus);
}
