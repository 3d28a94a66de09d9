/** Stage 2: validate every record against its schema, on this thread or, for large inputs, on workers. */
import { availableParallelism } from "node:os";
import { checkRecord, identityOf } from "./check-record.js";
import { addRecord, emptyRecords, type Interner, type ValidRecords } from "./entries.js";
import type { LoadedSources } from "../load/load-sources.js";
import type { Problem } from "../report/problems.js";
import { recordsOfFile, type SourceRecord } from "../load/read-source-file.js";
import { RecordEstimate, totalBytes } from "../load/record-estimate.js";

/** Sources smaller than this validate on the main thread: starting workers would cost more. */
const PARALLEL_MIN_BYTES = 32 * 2 ** 20;

export interface ValidateOptions {
  /** Worker threads; 0 validates on the main thread; unset: workers for large inputs only. */
  workers?: number;
  /** Records validated so far, and the total estimated from the bytes of the files done. */
  onProgress?: (records: number, estimatedTotal?: number) => void;
  /**
   * Valid showtimes from workers kept as sent, in `held`, not made entries (held-showtimes.ts): a build
   * with markets makes them market by market. On this thread (small inputs) they are entries as ever.
   */
  holdShowtimes?: boolean;
  /** Told how many worker threads validated (0: this thread did). */
  onWorkers?: (count: number) => void;
}

/** Keeps what an invalid record says about others (check-record.ts identityOf). */
function addIdentity(records: ValidRecords, source: SourceRecord): void {
  const identity = identityOf(source);
  if (identity) records.invalid.push({ ...identity, file: source.file, line: source.line, index: source.index });
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
        holdShowtimes: options.holdShowtimes,
        onProgress: options.onProgress,
      });
      return records;
    }
  }
  options.onWorkers?.(0);
  let count = 0;
  const estimate = new RecordEstimate(sources.files);
  sources.files.forEach((file, at) => {
    for (const source of recordsOfFile(file, problems)) {
      const facts = checkRecord(source, problems);
      if (facts) addRecord(records, source.resource, facts, source, interner);
      else addIdentity(records, source);
      if (++count % 50_000 === 0) options.onProgress?.(count, estimate.estimate(count));
    }
    options.onProgress?.(count, estimate.fileDone(at, count));
  });
  return records;
}
