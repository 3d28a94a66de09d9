/**
 * An NDJSON source file is read a slice at a time (build/load/read-source-file.ts), never whole: its
 * records, line numbers and problems are those of the whole text split at "\n", whatever falls on a
 * slice's edge (a line, a character of several bytes, a byte order mark), lines longer than a slice,
 * with or without a last newline, blank lines and CRLF endings.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { recordsOfFile } from "../build/load/read-source-file.js";
import type { Problem } from "../build/report/problems.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";

/** The slice read at a time (READ_BYTES). */
const SLICE = 4 * 2 ** 20;

let work: string;
beforeAll(() => {
  work = makeTempDir("read-source-file");
  mkdirSync(path.join(work, "showtimes"));
});
afterAll(() => removeDir(work));

/** What reading the whole text and splitting it gives: each non-blank line parsed, or its problem. */
function wholeText(text: string, file: string) {
  const records: Array<{ line: number; value: unknown }> = [];
  const problems: string[] = [];
  text
    .replace(/^\uFEFF/, "")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      try {
        records.push({ line: i + 1, value: JSON.parse(line) });
      } catch {
        problems.push(`${file}:${i + 1} invalid_json`);
      }
    });
  return { records, problems };
}

function read(name: string, bytes: Buffer) {
  const file = path.join(work, "showtimes", name);
  writeFileSync(file, bytes);
  const problems: Problem[] = [];
  const records = [...recordsOfFile({ resource: "showtimes", file }, problems)].map((r) => ({
    line: r.line,
    value: r.value,
  }));
  return {
    file,
    got: { records, problems: problems.map((p) => `${p.file}:${p.line} ${p.code}`) },
  };
}

/** Lines of padding up to `bytes`, then `tail`: what lands on the first slice's edge is the tail's start. */
function padTo(bytes: number, tail: string): string {
  const line = `{"n":"${"x".repeat(90)}"}\n`;
  const count = Math.floor(bytes / line.length);
  return line.repeat(count) + " ".repeat(bytes - count * line.length) + tail;
}

test.each([
  ["small, blank lines, CRLF, no last newline", '{"a":1}\r\n\n  \n{"b":"é"}\n{oops\n{"c":[1,2]}'],
  ["a byte order mark, a last newline", '\uFEFF{"a":1}\n{"b":2}\n'],
  ["a line across the slice's edge", padTo(SLICE - 5, '{"edge":"across"}\n{"after":1}\n')],
  ["a newline as the slice's last byte", padTo(SLICE - 1, '\n{"after":1}')],
  ["a character of three bytes across the edge", padTo(SLICE - 7, '{"k":"€€€"}\n')],
  ["an invalid line across the edge", padTo(SLICE - 3, "{nope}\n" + '{"ok":true}\n')],
  ["a line longer than a slice", `{"long":"${"y".repeat(SLICE + 10)}"}\n{"after":1}\n`],
  ["a line twice as long as a slice, no last newline", `\uFEFF{"long":"${"€".repeat(SLICE)}"}`],
  ["only a byte order mark", "\uFEFF"],
  ["a byte order mark in the middle, not taken away", '{"a":1}\n\uFEFF{"b":2}\n'],
])("%s: the records and problems of the whole text", (name, text) => {
  const { file, got } = read(`${name.replace(/\W+/g, "-")}.ndjson`, Buffer.from(text, "utf8"));
  expect(got).toEqual(wholeText(text, file));
});

test("a folder named as a file is a problem, with no records", () => {
  const file = path.join(work, "showtimes", "folder.ndjson");
  mkdirSync(file);
  const problems: Problem[] = [];
  expect([...recordsOfFile({ resource: "showtimes", file }, problems)]).toEqual([]);
  expect(problems.map((p) => [p.code, p.message])).toEqual([["unreadable_file", "could not be read (EISDIR)"]]);
});
