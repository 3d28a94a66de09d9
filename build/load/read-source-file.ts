/**
 * One source file's records: a JSON array (`*.json`) or one record per line (`*.ndjson`, `*.jsonl`).
 * Kept apart from the file listing (fast-glob) so validation workers can bundle it alone.
 */
import { readFileSync } from "node:fs";
import type { Problem } from "../report/problems.js";
import type { Resource } from "../validate/schemas.js";

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

function* parseJsonArray(resource: Resource, file: string, text: string, problems: Problem[]): Generator<SourceRecord> {
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

function* parseNdjson(resource: Resource, file: string, text: string, problems: Problem[]): Generator<SourceRecord> {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    try {
      yield { resource, file, line: i + 1, value: JSON.parse(line) };
    } catch (error) {
      problems.push({
        code: "invalid_json",
        file,
        line: i + 1,
        path: "",
        message: `is not valid JSON (${(error as Error).message})`,
      });
    }
  }
}

/** The records of one source file, in file order; read and parse problems go to `problems`. */
export function* recordsOfFile({ resource, file }: SourceFile, problems: Problem[]): Generator<SourceRecord> {
  let text: string;
  try {
    text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? "read error";
    problems.push({ code: "unreadable_file", file, path: "", message: `could not be read (${reason})` });
    return;
  }
  const parse = file.endsWith(".ndjson") || file.endsWith(".jsonl") ? parseNdjson : parseJsonArray;
  yield* parse(resource, file, text, problems);
}
