/**
 * A validation worker: reads, parses and validates the source files it is given, in order, and
 * sends per file its problems and valid records (validate-protocol.ts). Bundled and started by
 * validate-parallel.ts.
 */
import { parentPort, workerData } from "node:worker_threads";
import { checkRecord, identityOf, type PlainFacts } from "./check-record.js";
import type { Problem } from "./problems.js";
import { recordsOfFile, type SourceFile } from "./read-source-file.js";
import { ABSENT, NUMBERS_PER_SHOWTIME, RowTable, type FileResult } from "./validate-protocol.js";

const { files } = workerData as { files: Array<{ at: number } & SourceFile> };
const strings = new RowTable<string>((text) => text);
const lists = new RowTable<number[]>((rows) => rows.join(","));

for (const source of files) {
  const problems: Problem[] = [];
  const plain: FileResult["plain"] = [];
  const invalid: FileResult["invalid"] = [];
  const numbers: number[] = [];
  const own: string[] = [];
  for (const record of recordsOfFile(source, problems)) {
    const facts = checkRecord(record, problems);
    if (!facts) {
      const identity = identityOf(record);
      if (identity) invalid.push({ ...identity, line: record.line, index: record.index });
      continue;
    }
    if (facts.kind === "plain") {
      plain.push({ ...(facts as PlainFacts), line: record.line, index: record.index });
      continue;
    }
    own.push(facts.id, facts.externalId, facts.bookingUrl ?? "");
    numbers.push(
      record.line ?? ABSENT,
      record.index ?? ABSENT,
      strings.row(facts.cinemaId),
      strings.row(facts.filmId),
      strings.row(facts.startsAt),
      strings.row(facts.observedAt),
      strings.row(facts.sourceUpdatedAt),
      strings.row(facts.provider),
      strings.row(facts.screenName),
      lists.row(facts.attributeIds.map((id) => strings.row(id))),
    );
  }
  if (numbers.length !== (own.length / 3) * NUMBERS_PER_SHOWTIME)
    throw new Error("validation worker: record numbers out of step");
  const result: FileResult = {
    at: source.at,
    problems,
    invalid,
    plain,
    numbers: Float64Array.from(numbers),
    strings: own,
    newStrings: strings.takeNew(),
    newLists: lists.takeNew(),
  };
  parentPort!.postMessage(result, [result.numbers.buffer as ArrayBuffer]);
}
