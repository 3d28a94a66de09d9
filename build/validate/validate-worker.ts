/**
 * A validation worker: reads, parses and validates the source files it is given, in order, and
 * sends them in slices of records, each with its problems and valid records (validate-protocol.ts).
 * Bundled and started by validate-parallel.ts, which sends the showtime tables it validates by:
 * this worker's shape is made from them, never from the tables its own bundle holds.
 */
import { parentPort, workerData } from "node:worker_threads";
import { checkRecord, identityOf, type PlainFacts } from "./check-record.js";
import type { Problem } from "../report/problems.js";
import { type ProblemSink, recordsOfFile, type SourceFile } from "../load/read-source-file.js";
import { showtimeShapeOf, type ShowtimeTables } from "./showtime-shape.js";
import { type FileResult, type ShowtimeWire, WorkerTables, writeShowtime } from "./validate-protocol.js";

const { files, showtimeTables } = workerData as {
  files: Array<{ at: number } & SourceFile>;
  showtimeTables: ShowtimeTables;
};
const shape = showtimeShapeOf(showtimeTables);
const tables = new WorkerTables();

/**
 * Results sent and not yet taken by the parent, at most (each ~3 MB). The parent takes them in the
 * files' order, and a result not taken is held in memory: unbounded, a worker's files piled up while
 * the other's were taken. Room for a whole file of 100,000 records (7 slices) and more, so a worker
 * keeps validating while the other's file is taken: with 2, each worker waited out the other's
 * files, and validation at 2M showtimes took 10.3 -> 12.3 s. The parent answers each result it
 * takes (validate-parallel.ts).
 */
const AHEAD = 16;
/** Records a result holds at most: a file's records go in slices, so a worker holds one slice's wire. */
const SLICE = 16_384;
let sent = 0;
let taken = 0;
let wake: (() => void) | undefined;
const onTaken = () => {
  taken++;
  wake?.();
};
parentPort!.on("message", onTaken);

/** One slice of a file's results, filled record by record. */
function emptySlice() {
  return {
    records: 0,
    problems: [] as Problem[],
    plain: [] as FileResult["plain"],
    invalid: [] as FileResult["invalid"],
    showtimes: { numbers: [], strings: [] } as ShowtimeWire,
  };
}

async function send(at: number, last: boolean, slice: ReturnType<typeof emptySlice>) {
  while (sent - taken >= AHEAD) await new Promise<void>((resolve) => (wake = resolve));
  const result: FileResult = {
    at,
    last,
    problems: slice.problems,
    invalid: slice.invalid,
    plain: slice.plain,
    numbers: Int32Array.from(slice.showtimes.numbers),
    strings: slice.showtimes.strings,
    newStrings: tables.strings.takeNew(),
    newLists: tables.lists.takeNew(),
  };
  parentPort!.postMessage(result, [result.numbers.buffer as ArrayBuffer]);
  sent++;
}

for (const source of files) {
  let slice = emptySlice();
  // Problems of reading the file land in the slice being filled when they are found, as on one thread.
  const reading: ProblemSink = { push: (...found) => slice.problems.push(...found) };
  for (const record of recordsOfFile(source, reading)) {
    const facts = checkRecord(record, slice.problems, shape);
    if (!facts) {
      const identity = identityOf(record);
      if (identity) slice.invalid.push({ ...identity, line: record.line, index: record.index });
    } else if (facts.kind === "plain") {
      slice.plain.push({ ...(facts as PlainFacts), line: record.line, index: record.index });
    } else writeShowtime(facts.showtime, record, slice.showtimes, tables, shape);
    if (++slice.records < SLICE) continue;
    await send(source.at, false, slice);
    slice = emptySlice();
  }
  await send(source.at, true, slice);
}
parentPort!.off("message", onTaken);
