/**
 * Stage 2 on worker threads, for large inputs: source files are dealt out to workers, which read,
 * parse and validate them (most of the stage's time) into arenas of shared memory; this thread
 * takes the results in the files' fixed order, so entries, problems and output are exactly those
 * of the single-threaded path.
 */
import { Worker } from "node:worker_threads";
import type { BuildContext } from "./context.js";
import { ARENA_LAYOUT } from "./record-arena.js";
import { ABSENT, NUMBERS_PER_RECORD, type FileResult } from "./validate-protocol.js";
import { newEntry, type Interner } from "./validate-records.js";
import { bundleWorkerModule, removeWorkerModule } from "./worker-module.js";

/** One worker's tables as this thread holds them: its row numbers → shared values here. */
interface WorkerTables {
  chunks: number[];
  times: Array<[string, string]>;
  strings: string[];
  lists: string[][];
}

/** The validation worker as a loadable module, or undefined (see worker-module.ts). */
export function bundleValidationWorker(): Promise<string | undefined> {
  return bundleWorkerModule(new URL("./validate-worker.ts", import.meta.url));
}

/** Validates ctx.sourceFiles on `count` workers running `script` into ctx.entries and ctx.problems; removes `script`. */
export async function validateInWorkers(ctx: BuildContext, script: string, count: number, interner: Interner): Promise<void> {
  const files = ctx.sourceFiles!.map((file, at) => ({ ...file, at }));
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const waiting = new Map<number, { result: FileResult; tables: WorkerTables }>();
      let next = 0;
      let records = 0;
      const applyReady = () => {
        for (let ready = waiting.get(next); ready; ready = waiting.get(next)) {
          waiting.delete(next);
          records += applyResult(ctx, ready.result, ready.tables);
          ctx.onProgress?.("validate", records);
          next++;
        }
        if (next === files.length) resolve();
      };
      const used = Math.min(count, files.length);
      for (let w = 0; w < used; w++) {
        const worker = new Worker(script, { workerData: { files: files.filter((f) => f.at % used === w) } });
        const tables: WorkerTables = { chunks: [], times: [], strings: [], lists: [] };
        worker.on("message", (result: FileResult) => {
          // Rows are numbered in the worker's sending order: extend the tables as messages arrive.
          extendTables(ctx, tables, result, interner);
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
    removeWorkerModule(script);
  }
}

function extendTables(ctx: BuildContext, tables: WorkerTables, result: FileResult, interner: Interner): void {
  for (const chunk of result.chunks) tables.chunks.push(ctx.arena.adopt(chunk));
  for (const text of result.newTimes) tables.times.push(interner.time(text));
  for (const text of result.newStrings) tables.strings.push(interner.string(text));
  for (const rows of result.newLists) tables.lists.push(interner.list(rows.map((row) => tables.strings[row]!)));
}

/** Adds one file's problems and entries; returns how many records it held. */
function applyResult(ctx: BuildContext, result: FileResult, tables: WorkerTables): number {
  ctx.problems.push(...result.problems);
  const { resource, file } = ctx.sourceFiles![result.at]!;
  const entries = ctx.entries[resource];
  const n = result.numbers;
  const row = <T>(table: T[], value: number) => (value === ABSENT ? undefined : table[value]);
  const { chunkBytes } = ARENA_LAYOUT;
  result.ids.forEach((id, i) => {
    const at = i * NUMBERS_PER_RECORD;
    const local = n[at]!;
    const handle = tables.chunks[Math.floor(local / chunkBytes)]! * chunkBytes + (local % chunkBytes);
    entries.push(newEntry(
      id, handle, row(tables.times, n[at + 1]!)?.[0], row(tables.times, n[at + 2]!), row(tables.times, n[at + 3]!), file,
      n[at + 4] === ABSENT ? undefined : n[at + 4], n[at + 5] === ABSENT ? undefined : n[at + 5],
      row(tables.strings, n[at + 6]!), row(tables.strings, n[at + 7]!), row(tables.lists, n[at + 8]!),
    ));
  });
  return result.ids.length;
}
