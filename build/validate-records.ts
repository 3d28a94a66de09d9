/** Stage 2: validate every record against its schema, on this thread or, for large inputs, on workers. */
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { checkRecord } from "./check-record.js";
import { addRecord, emptyRecords, type Interner, type ValidRecords } from "./entries.js";
import type { LoadedSources } from "./load-sources.js";
import type { Problem } from "./problems.js";
import { recordsOfFile, type SourceFile } from "./read-source-file.js";

/** Sources smaller than this validate on the main thread: starting workers would cost more. */
const PARALLEL_MIN_BYTES = 32 * 2 ** 20;

export interface ValidateOptions {
  /** Worker threads; 0 validates on the main thread; unset: workers for large inputs only. */
  workers?: number;
  onProgress?: (records: number) => void;
  /** Told how many worker threads validated (0: this thread did). */
  onWorkers?: (count: number) => void;
}

function totalBytes(files: readonly SourceFile[]): number {
  return files.reduce((sum, { file }) => {
    try {
      return sum + statSync(file).size;
    } catch {
      return sum; // unreadable: reported when it is read
    }
  }, 0);
}

export async function validateRecords(
  sources: LoadedSources,
  options: ValidateOptions,
  problems: Problem[],
  interner: Interner,
): Promise<ValidRecords> {
  const records = emptyRecords();
  const workers = options.workers ?? (totalBytes(sources.files) >= PARALLEL_MIN_BYTES ? availableParallelism() : 0);
  if (workers > 0 && sources.files.length > 1) {
    // Loaded on demand: it bundles the worker with esbuild, which small builds never need.
    const { bundleValidationWorker, validateInWorkers } = await import("./validate-parallel.js");
    const script = await bundleValidationWorker();
    if (script) {
      options.onWorkers?.(Math.min(workers, sources.files.length));
      await validateInWorkers({
        files: sources.files,
        script,
        workers,
        records,
        problems,
        interner,
        onProgress: options.onProgress,
      });
      return records;
    }
  }
  options.onWorkers?.(0);
  let count = 0;
  for (const file of sources.files) {
    for (const source of recordsOfFile(file, problems)) {
      const facts = checkRecord(source, problems);
      if (facts) addRecord(records, source.resource, facts, source, interner);
      if (++count % 50_000 === 0) options.onProgress?.(count);
    }
  }
  return records;
}
