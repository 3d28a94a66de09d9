/**
 * One source file's records: a JSON array (`*.json`) or one record per line (`*.ndjson`, `*.jsonl`).
 * Kept apart from the file listing (fast-glob) so validation workers can bundle it alone.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
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

/** A file's lines as text.split("\n") gives them, read a slice at a time; the first without a byte order mark. */
function* linesOf(fd: number): Generator<string> {
  const buffer = Buffer.allocUnsafe(READ_BYTES);
  const decoder = new StringDecoder("utf8");
  let rest = "";
  let started = false;
  for (let read; (read = readSync(fd, buffer, 0, READ_BYTES, null)) > 0; ) {
    let text = rest + decoder.write(buffer.subarray(0, read));
    if (!started && text.length > 0) {
      text = text.replace(/^\uFEFF/, "");
      started = true;
    }
    const lines = text.split("\n");
    rest = lines.pop()!;
    yield* lines;
  }
  yield rest + decoder.end();
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
