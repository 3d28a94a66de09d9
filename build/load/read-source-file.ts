/**
 * One source file's records: a JSON array (`*.json`) or one record per line (`*.ndjson`, `*.jsonl`).
 * Kept apart from the file listing (fast-glob) so validation workers can bundle it alone.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import type { Problem } from "../report/problems.js";
import type { Resource } from "../validate/schemas.js";

/** Where reading and parsing problems go, in the order they are found. */
export type ProblemSink = Pick<Problem[], "push">;

/** A source file to read: the resource its records belong to, and its path. */
export interface SourceFile {
  resource: Resource;
  file: string;
}

/** Where a record was read: a file and either an NDJSON line (1-based) or a JSON array index (0-based). */
export interface Location {
  file: string;
  line?: number;
  index?: number;
}

/** One record as read from a source file, before validation. */
export interface SourceRecord extends Location {
  resource: Resource;
  value: unknown;
}

/** Turns a JSON.parse message's character position into a 1-based line, when it gives one. */
function lineOfPosition(text: string, message: string): number | undefined {
  const match = /position (\d+)/.exec(message);
  if (!match) return undefined;
  return text.slice(0, Number(match[1])).split("\n").length;
}

function* parseJsonArray(
  resource: Resource,
  file: string,
  text: string,
  problems: ProblemSink,
): Generator<SourceRecord> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    problems.push({
      code: "invalid_json",
      file,
      line: lineOfPosition(text, message),
      path: "",
      message: `is not valid JSON (${message})`,
    });
    return;
  }
  if (!Array.isArray(parsed)) {
    problems.push({ code: "not_an_array", file, path: "", message: "must hold a JSON array of records" });
    return;
  }
  for (let index = 0; index < parsed.length; index++) yield { resource, file, index, value: parsed[index] };
}

function* parseNdjson(resource: Resource, file: string, lines: Iterable<string>, problems: ProblemSink) {
  let number = 0;
  for (const line of lines) {
    number++;
    if (line.trim() === "") continue;
    try {
      yield { resource, file, line: number, value: JSON.parse(line) } as SourceRecord;
    } catch (error) {
      problems.push({
        code: "invalid_json",
        file,
        line: number,
        path: "",
        message: `is not valid JSON (${(error as Error).message})`,
      });
    }
  }
}

/**
 * NDJSON is read this many bytes at a time: a part of 100,000 showtimes (40 MB) is never held whole,
 * by this thread or by a validation worker (at 7.4M showtimes, two workers each held one beside
 * the records: the build's peak RSS).
 */
const READ_BYTES = 4 * 2 ** 20;
const NEWLINE = 0x0a;

/** Whether the buffer starts with a byte order mark (U+FEFF in UTF-8). */
const startsWithBom = (buffer: Buffer, bytes: number) =>
  bytes >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;

/**
 * A file's lines as text.split("\n") of its whole text gives them, the first without a byte order
 * mark: read a slice at a time, each line decoded alone (a "\n" byte is never part of a longer UTF-8
 * character). A slice decoded into one string cost more than the whole file did: at 2M showtimes
 * validation took 10.5 -> 14 s, a 4 MB string a slice in each worker's heap.
 */
function* linesOf(fd: number): Generator<string> {
  let buffer = Buffer.allocUnsafe(READ_BYTES);
  // The line being read starts at `start`; the buffer holds `end` bytes read.
  let [start, end] = [0, 0];
  for (let read = -1; read !== 0; ) {
    // The line not yet ended goes to the buffer's start; one longer than the buffer grows it.
    if (start > 0) [end, start] = [buffer.copy(buffer, 0, start, end), 0];
    if (end === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
    const first = read === -1;
    read = readSync(fd, buffer, end, buffer.length - end, null);
    end += read;
    if (first && startsWithBom(buffer, end)) start = 3;
    for (let at = buffer.indexOf(NEWLINE, start); at !== -1 && at < end; at = buffer.indexOf(NEWLINE, start)) {
      yield buffer.toString("utf8", start, at);
      start = at + 1;
    }
  }
  yield buffer.toString("utf8", start, end);
}

const unreadable = (file: string, error: unknown): Problem => ({
  code: "unreadable_file",
  file,
  path: "",
  message: `could not be read (${(error as NodeJS.ErrnoException).code ?? "read error"})`,
});

function* readNdjson(resource: Resource, file: string, problems: ProblemSink): Generator<SourceRecord> {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    problems.push(unreadable(file, error));
    return;
  }
  try {
    yield* parseNdjson(resource, file, linesOf(fd), problems);
  } catch (error) {
    if (!(error as NodeJS.ErrnoException).syscall) throw error;
    problems.push(unreadable(file, error));
  } finally {
    closeSync(fd);
  }
}

/** The records of one source file, in file order; read and parse problems go to `problems`. */
export function* recordsOfFile({ resource, file }: SourceFile, problems: ProblemSink): Generator<SourceRecord> {
  if (file.endsWith(".ndjson") || file.endsWith(".jsonl")) return yield* readNdjson(resource, file, problems);
  let text: string;
  try {
    text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  } catch (error) {
    problems.push(unreadable(file, error));
    return;
  }
  yield* parseJsonArray(resource, file, text, problems);
}
