/**
 * Validation on worker threads, for large inputs: source files are dealt out to workers, which
 * read, parse and validate them (most of the stage's time); this thread takes the results in the
 * files' fixed order, so records and problems are exactly those of the single-threaded path.
 */
import { Worker } from "node:worker_threads";
import { addRecord, type Interner, type ValidRecords } from "./entries.js";
import type { Problem } from "../report/problems.js";
import type { SourceFile } from "../load/read-source-file.js";
import { largestBytes, RecordEstimate } from "../load/record-estimate.js";
import { SHOWTIME_SHAPE } from "./showtime-shape.js";
import { HeldShowtimes } from "./held-showtimes.js";
import { type FileResult, type HeldTables, readShowtimes } from "./validate-protocol.js";
import { bundleWorkerModule, removeWorkerModule } from "../worker-module.js";

/**
 * A worker's old generation at most, in MB. V8 lets a heap grow lazily toward its limit (by default
 * the main thread's, GBs), and at 7.4M showtimes two workers each held ~280 MB, mostly garbage, beside
 * the main thread's records: the build's peak RSS. A worker needs a slice of NDJSON at a time
 * (read-source-file.ts), its tables of repeated values, which grow with the data (hence the floor),
 * and a JSON array file whole: its text and parsed records take a few times its size.
 */
export function workerHeapLimitMb(largestFileBytes: number): number {
  return 256 + Math.ceil((8 * largestFileBytes) / 2 ** 20);
}

/** The validation worker as a loadable module, or undefined (see worker-module.ts). */
export function bundleValidationWorker(): Promise<string | undefined> {
  return bundleWorkerModule(new URL("./validate-worker.ts", import.meta.url));
}

export interface ParallelValidation {
  files: readonly SourceFile[];
  script: string;
  workers: number;
  records: ValidRecords;
  problems: Problem[];
  interner: Interner;
  /** Showtimes kept as sent, in `records.held`, not made entries (held-showtimes.ts): a build with markets. */
  holdShowtimes?: boolean;
  onProgress?: (records: number, estimatedTotal?: number) => void;
}

/** Validates `files` on workers running `script` into `records` and `problems`; removes `script`. */
export async function validateInWorkers(run: ParallelValidation): Promise<void> {
  const files = run.files.map((file, at) => ({ ...file, at }));
  if (run.holdShowtimes) run.records.held ??= new HeldShowtimes(run.interner, SHOWTIME_SHAPE);
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      // Each worker's results, in the order it sent them: its files in order, each file's slices in order.
      const waiting: Array<Array<{ result: FileResult; tables: HeldTables }>> = [];
      let next = 0;
      let count = 0;
      const estimate = new RecordEstimate(run.files);
      const used = Math.min(run.workers, files.length);
      const maxOldGenerationSizeMb = workerHeapLimitMb(largestBytes(run.files));
      const applyReady = () => {
        for (let ready = waiting[next % used]?.[0]; ready; ready = waiting[next % used]?.[0]) {
          waiting[next % used]!.shift();
          count += applyResult(run, files[next]!, ready.result, ready.tables);
          // Taken: its worker may validate one slice further ahead (validate-worker.ts AHEAD).
          workers[next % used]!.postMessage(next);
          if (!ready.result.last) continue;
          run.onProgress?.(count, estimate.fileDone(next, count));
          next++;
        }
        if (next === files.length) resolve();
      };
      for (let w = 0; w < used; w++) {
        // The worker validates and lays out showtimes by the tables this thread reads them back by.
        const workerData = { files: files.filter((f) => f.at % used === w), showtimeTables: SHOWTIME_SHAPE.tables };
        const worker = new Worker(run.script, { workerData, resourceLimits: { maxOldGenerationSizeMb } });
        const tables: HeldTables = { strings: [], lists: [] };
        waiting.push([]);
        worker.on("message", (result: FileResult) => {
          // Rows are numbered in the worker's sending order: extend the tables as messages arrive.
          for (const text of result.newStrings) tables.strings.push(run.interner.string(text));
          for (const rows of result.newLists)
            tables.lists.push(run.interner.list(rows.map((row) => tables.strings[row]!)));
          waiting[w]!.push({ result, tables });
          applyReady();
        });
        worker.on("error", reject);
        worker.on("exit", (code) => code !== 0 && reject(new Error(`a validation worker stopped (exit ${code})`)));
        workers.push(worker);
      }
      applyReady();
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
    removeWorkerModule(run.script);
  }
}

/** Adds one file's problems and records; returns how many records it held. */
function applyResult(run: ParallelValidation, source: SourceFile, result: FileResult, tables: HeldTables): number {
  run.problems.push(...result.problems);
  const where = (line: number | undefined, index: number | undefined) => ({ file: source.file, line, index });
  for (const identity of result.invalid)
    run.records.invalid.push({ ...identity, ...where(identity.line, identity.index) });
  for (const facts of result.plain)
    addRecord(run.records, source.resource, facts, where(facts.line, facts.index), run.interner);
  const slice = { file: source.file, numbers: result.numbers, strings: result.strings, tables };
  const showtimes =
    run.records.held instanceof HeldShowtimes
      ? run.records.held.add(slice)
      : readShowtimes(slice, run.interner, SHOWTIME_SHAPE, run.records.showtimes);
  return result.plain.length + showtimes;
}
