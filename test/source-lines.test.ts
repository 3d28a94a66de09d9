/**
 * Lines a reader can see whole: no source line is wider than the formatter's 120 characters,
 * the strings and comments it cannot wrap and the generated modules included. The generator's
 * literal (build/openapi/source-literal.ts) splits a long string and still means the same value.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { sourceLiteral } from "../build/openapi/source-literal.js";
import { ROOT } from "./helpers/build-helpers.js";

const MAX_LINE = 120;
const width = (line: string) => [...line].length;

/** Lines over the width in `text`, as `file:line`. */
function wideLines(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => (width(line) > MAX_LINE ? [`${file}:${i + 1}`] : []));
}

test("no committed TypeScript or JavaScript source line is over 120 characters", () => {
  const files = execFileSync("git", ["ls-files", "*.ts", "*.mts", "*.mjs", "*.js"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    // public/ is the docs page's served assets, not source a reader edits.
    .filter((file) => file !== "" && !file.startsWith("public/"));
  expect(files.length).toBeGreaterThan(100);
  const wide = files.flatMap((file) => wideLines(file, readFileSync(path.join(ROOT, file), "utf8")));
  expect(wide).toEqual([]);
});

describe("a generated module's literal", () => {
  const evaluate = (text: string) => new Function(`return ${text}`)() as unknown;
  const words = (n: number, word: string) => Array.from({ length: n }, () => word).join(" ");
  const cases: [string, unknown][] = [
    ["a short string", { description: "fits" }],
    ["a string one character under the line", { d: "x".repeat(MAX_LINE - 10) }],
    ["a string at the line", { d: "x".repeat(MAX_LINE - 9) }],
    ["a string just past the line", { d: "x".repeat(MAX_LINE - 8) }],
    ["a long sentence", { description: words(60, "cinema") }],
    ["a word longer than a line", { d: `${"w".repeat(300)} tail` }],
    ["escapes and non-Latin text", { 'k"ey': words(40, 'é\\"\n中文') }],
    ["long strings in arrays, nested", { list: [words(50, "film"), { inner: [words(50, "showtime")] }] }],
    ["empty containers and scalars", { a: [], b: {}, c: null, d: 3.5, e: true, f: "" }],
  ];

  test.each(cases)("%s: the same value, every line within 120 characters", (_name, value) => {
    const text = `export const X = ${sourceLiteral(value)};`;
    expect(evaluate(text.slice("export const X = ".length, -1))).toEqual(value);
    expect(wideLines("literal", text)).toEqual([]);
  });

  test("a value that fits is JSON.stringify's own layout", () => {
    const value = { a: [1, "two", { three: null }], b: "short" };
    expect(sourceLiteral(value)).toBe(JSON.stringify(value, null, 2));
  });
});
