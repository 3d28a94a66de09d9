/**
 * A validation worker: reads, parses and validates the source files it is given, in order, and
 * stores each valid record's canonical JSON in its own arena of shared memory. Per file it sends
 * the problems, the records (validate-protocol.ts) and any arena chunks it started. Bundled and
 * started by validate-parallel.ts.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Problem } from "./problems.js";
import { recordsOfFile, type SourceFile } from "./read-source-file.js";
import { RecordArena } from "./record-arena.js";
import { ABSENT, NUMBERS_PER_RECORD, RowTable, type FileResult } from "./validate-protocol.js";
import { checkRecord, factsOf } from "./validate-records.js";

const { files } = workerData as { files: Array<{ at: number } & SourceFile> };
const arena = new RecordArena();
const times = new RowTable<string>((text) => text);
const strings = new RowTable<string>((text) => text);
const lists = new RowTable<number[]>((rows) => rows.join(","));
let chunksSent = 0;

for (const source of files) {
  const problems: Problem[] = [];
  const ids: string[] = [];
  const numbers: number[] = [];
  for (const record of recordsOfFile(source, problems)) {
    const checked = checkRecord(record, problems);
    if (!checked) continue;
    const facts = factsOf(record, checked.record, arena.add(checked.json));
    ids.push(facts.id);
    const attributes = facts.attributeIds && lists.row(facts.attributeIds.map((id) => strings.row(id)));
    numbers.push(
      facts.handle, times.row(facts.startsAt), times.row(facts.observedAt), times.row(facts.sourceUpdatedAt),
      facts.line ?? ABSENT, facts.index ?? ABSENT, strings.row(facts.cinemaId), strings.row(facts.filmId), attributes ?? ABSENT,
    );
  }
  if (numbers.length !== ids.length * NUMBERS_PER_RECORD) throw new Error("validation worker: record numbers out of step");
  const chunks = arena.sharedChunks().slice(chunksSent);
  chunksSent += chunks.length;
  const result: FileResult = {
    at: source.at, problems, ids, numbers: Float64Array.from(numbers),
    newTimes: times.takeNew(), newStrings: strings.takeNew(), newLists: lists.takeNew(), chunks,
  };
  parentPort!.postMessage(result, [result.numbers.buffer as ArrayBuffer]);
}
