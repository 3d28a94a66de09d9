/**
 * A validation worker: reads, parses and validates the source files it is given, in order, and
 * sends per file its problems and valid records (validate-protocol.ts). Bundled and started by
 * validate-parallel.ts, which sends the showtime tables it validates by: this worker's shape is
 * made from them, never from the tables its own bundle holds.
 */
import { parentPort, workerData } from "node:worker_threads";
import { checkRecord, identityOf, type PlainFacts } from "./check-record.js";
import type { Problem } from "../report/problems.js";
import { recordsOfFile, type SourceFile } from "../load/read-source-file.js";
import { showtimeShapeOf, type ShowtimeTables } from "./showtime-shape.js";
import { type FileResult, type ShowtimeWire, WorkerTables, writeShowtime } from "./validate-protocol.js";

const { files, showtimeTables } = workerData as {
  files: Array<{ at: number } & SourceFile>;
  showtimeTables: ShowtimeTables;
};
const shape = showtimeShapeOf(showtimeTables);
const tables = new WorkerTables();

for (const source of files) {
  const problems: Problem[] = [];
  const plain: FileResult["plain"] = [];
  const invalid: FileResult["invalid"] = [];
  const showtimes: ShowtimeWire = { numbers: [], strings: [] };
  for (const record of recordsOfFile(source, problems)) {
    const facts = checkRecord(record, problems, shape);
    if (!facts) {
      const identity = identityOf(record);
      if (identity) invalid.push({ ...identity, line: record.line, index: record.index });
      continue;
    }
    if (facts.kind === "plain") plain.push({ ...(facts as PlainFacts), line: record.line, index: record.index });
    else writeShowtime(facts.showtime, record, showtimes, tables, shape);
  }
  const result: FileResult = {
    at: source.at,
    problems,
    invalid,
    plain,
    numbers: Float64Array.from(showtimes.numbers),
    strings: showtimes.strings,
    newStrings: tables.strings.takeNew(),
    newLists: tables.lists.takeNew(),
  };
  parentPort!.postMessage(result, [result.numbers.buffer as ArrayBuffer]);
}
