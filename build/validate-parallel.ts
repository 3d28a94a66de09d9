/**
 * Validation on worker threads, for large inputs: source files are dealt out to workers, which
 * read, parse and validate them (most of the stage's time); this thread takes the results in the
 * files' fixed order, so records and problems are exactly those of the single-threaded path.
 */
import { Worker } from "node:worker_threads";
import { addRecord, type Interner, type ValidRecords } from "./entries.js";
import type { Problem } from "./problems.js";
import type { SourceFile } from "./read-source-file.js";
import { RecordEstimate } from "./record-estimate.js";
import { ABSENT, NUMBERS_PER_SHOWTIME, STRINGS_PER_SHOWTIME, type FileResult } from "./validate-protocol.js";
import { bundleWorkerModule, removeWorkerModule } from "./worker-module.js";

/** One worker's tables as this thread holds them: its row numbers → shared values here. */
interface WorkerTables {
  strings: string[];
  lists: string[][];
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
  onProgress?: (records: number, estimatedTotal?: number) => void;
}

/** Validates `files` on workers running `script` into `records` and `problems`; removes `script`. */
export async function validateInWorkers(run: ParallelValidation): Promise<void> {
  const files = run.files.map((file, at) => ({ ...file, at }));
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const waiting = new Map<number, { result: FileResult; tables: WorkerTables }>();
      let next = 0;
      let count = 0;
      const estimate = new RecordEstimate(run.files);
      const applyReady = () => {
        for (let ready = waiting.get(next); ready; ready = waiting.get(next)) {
          waiting.delete(next);
          count += applyResult(run, files[next]!, ready.result, ready.tables);
          run.onProgress?.(count, estimate.fileDone(next, count));
          next++;
        }
        if (next === files.length) resolve();
      };
      const used = Math.min(run.workers, files.length);
      for (let w = 0; w < used; w++) {
        const worker = new Worker(run.script, { workerData: { files: files.filter((f) => f.at % used === w) } });
        const tables: WorkerTables = { strings: [], lists: [] };
        worker.on("message", (result: FileResult) => {
          // Rows are numbered in the worker's sending order: extend the tables as messages arrive.
          for (const text of result.newStrings) tables.strings.push(run.interner.string(text));
          for (const rows of result.newLists)
            tables.lists.push(run.interner.list(rows.map((row) => tables.strings[row]!)));
          waiting.set(result.at, { result, tables });
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
function applyResult(run: ParallelValidation, source: SourceFile, result: FileResult, tables: WorkerTables): number {
  run.problems.push(...result.problems);
  const where = (line: number | undefined, index: number | undefined) => ({ file: source.file, line, index });
  for (const identity of result.invalid)
    run.records.invalid.push({ ...identity, ...where(identity.line, identity.index) });
  for (const facts of result.plain)
    addRecord(run.records, source.resource, facts, where(facts.line, facts.index), run.interner);
  const n = result.numbers;
  const value = (row: number) => (row === ABSENT ? undefined : tables.strings[row]!);
  const count = result.strings.length / STRINGS_PER_SHOWTIME;
  for (let i = 0; i < count; i++) {
    const at = i * NUMBERS_PER_SHOWTIME;
    const [id, externalId, bookingUrl] = result.strings.slice(
      i * STRINGS_PER_SHOWTIME,
      (i + 1) * STRINGS_PER_SHOWTIME,
    ) as [string, string, string];
    const facts = {
      kind: "showtime" as const,
      id,
      externalId,
      bookingUrl: bookingUrl === "" ? undefined : bookingUrl,
      cinemaId: value(n[at + 2]!)!,
      filmId: value(n[at + 3]!)!,
      startsAt: value(n[at + 4]!)!,
      observedAt: value(n[at + 5]!)!,
      sourceUpdatedAt: value(n[at + 6]!),
      provider: value(n[at + 7]!)!,
      screenName: value(n[at + 8]!),
      attributeIds: tables.lists[n[at + 9]!]!,
    };
    addRecord(
      run.records,
      "showtimes",
      facts,
      where(n[at] === ABSENT ? undefined : n[at], n[at + 1] === ABSENT ? undefined : n[at + 1]),
      run.interner,
    );
  }
  return result.plain.length + count;
}
