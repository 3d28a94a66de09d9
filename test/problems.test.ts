/** The one printer of build problems for humans, pinned by inline snapshots, and the order it prints in. */
import { describe, expect, test } from "vitest";
import {
  formatPath,
  formatProblem,
  formatReport,
  PROBLEM_CODES,
  sortProblems,
  type Problem,
} from "../build/report/problems.js";

const PROBLEMS: Problem[] = [
  {
    code: "dangling_reference",
    file: "data/showtimes/2026/part-1.ndjson",
    line: 12,
    path: "cinemaId",
    message: 'refers to cinema "gb-nope", which does not exist',
  },
  {
    code: "invalid_value",
    file: "data/showtimes/2026/part-1.ndjson",
    line: 3,
    path: "startsAt",
    message: "is not a valid date-time (2023 is not a leap year)",
  },
  {
    code: "duplicate_id",
    file: "data/cinemas/gb.json",
    index: 4,
    path: "id",
    message: '"gb-lon-1" is already used (first at data/cinemas/gb.json[0])',
  },
  {
    code: "invalid_json",
    file: "data/showtimes/2026/part-1.ndjson",
    line: 7,
    path: "",
    message: "is not valid JSON (Unexpected end of JSON input)",
  },
  {
    code: "unknown_field",
    file: "data/cinemas/gb.json",
    index: 1,
    path: "location.lat",
    message: "is not a field of this record (check the spelling)",
  },
  { code: "no_sources", file: "data-empty", path: "", message: "has no source files" },
  {
    code: "unknown_field",
    file: "data/cinemas/gb.json",
    index: 1,
    path: "location.lang",
    message: "is not a field of this record (check the spelling)",
  },
];

describe("formatProblem", () => {
  test("what is wrong, then where: file:line for NDJSON and the field path", () => {
    expect(formatProblem(PROBLEMS[1]!)).toMatchInlineSnapshot(`
      "✖ startsAt is not a valid date-time (2023 is not a leap year) [invalid_value]
        → data/showtimes/2026/part-1.ndjson:3 startsAt"
    `);
  });

  test("file[index] for a record of a JSON array file", () => {
    expect(formatProblem(PROBLEMS[2]!)).toMatchInlineSnapshot(`
      "✖ id "gb-lon-1" is already used (first at data/cinemas/gb.json[0]) [duplicate_id]
        → data/cinemas/gb.json[4] id"
    `);
  });

  test("a problem with the whole record or file has no path", () => {
    expect(formatProblem(PROBLEMS[3]!)).toMatchInlineSnapshot(`
      "✖ is not valid JSON (Unexpected end of JSON input) [invalid_json]
        → data/showtimes/2026/part-1.ndjson:7"
    `);
    expect(formatProblem(PROBLEMS[5]!)).toMatchInlineSnapshot(`
      "✖ has no source files [no_sources]
        → data-empty"
    `);
  });
});

describe("formatReport", () => {
  test("every problem in file and position order, then a count per code", () => {
    const report = formatReport(PROBLEMS);
    const summary = report.slice(report.lastIndexOf("\n") + 1);
    expect(report.slice(0, -summary.length)).toMatchInlineSnapshot(`
      "✖ has no source files [no_sources]
        → data-empty
      ✖ location.lang is not a field of this record (check the spelling) [unknown_field]
        → data/cinemas/gb.json[1] location.lang
      ✖ location.lat is not a field of this record (check the spelling) [unknown_field]
        → data/cinemas/gb.json[1] location.lat
      ✖ id "gb-lon-1" is already used (first at data/cinemas/gb.json[0]) [duplicate_id]
        → data/cinemas/gb.json[4] id
      ✖ startsAt is not a valid date-time (2023 is not a leap year) [invalid_value]
        → data/showtimes/2026/part-1.ndjson:3 startsAt
      ✖ is not valid JSON (Unexpected end of JSON input) [invalid_json]
        → data/showtimes/2026/part-1.ndjson:7
      ✖ cinemaId refers to cinema "gb-nope", which does not exist [dangling_reference]
        → data/showtimes/2026/part-1.ndjson:12 cinemaId

      "
    `);
    expect(summary).toBe(
      "7 problems (dangling_reference 1, duplicate_id 1, invalid_json 1, invalid_value 1, no_sources 1, " +
        "unknown_field 2); nothing was written.",
    );
  });

  test("one problem reads in the singular", () => {
    expect(formatReport([PROBLEMS[0]!]).split("\n").at(-1)).toMatchInlineSnapshot(
      `"1 problem (dangling_reference 1); nothing was written."`,
    );
  });

  test("the report does not depend on the order problems were found in", () => {
    expect(formatReport([...PROBLEMS].reverse())).toBe(formatReport(PROBLEMS));
  });
});

describe("sortProblems", () => {
  test.each([
    ["files in plain string order", { file: "b" }, { file: "a" }],
    ["line 9 before line 10 (numbers, not text)", { file: "a", line: 10 }, { file: "a", line: 9 }],
    ["index 2 before index 11", { file: "a", index: 11 }, { file: "a", index: 2 }],
    ["a whole-file problem before its records", { file: "a", line: 1 }, { file: "a" }],
    ["by path within one record", { file: "a", line: 1, path: "name" }, { file: "a", line: 1, path: "id" }],
    [
      "by message within one field",
      { file: "a", line: 1, path: "id", message: "z" },
      { file: "a", line: 1, path: "id", message: "a" },
    ],
  ])("%s", (_reason, later, earlier) => {
    const base: Problem = { code: "invalid_value", file: "", path: "", message: "m" };
    const [first, second] = [
      { ...base, ...later },
      { ...base, ...earlier },
    ];
    expect(sortProblems([first, second])).toEqual([second, first]);
    expect(sortProblems([second, first])).toEqual([second, first]);
  });

  test("does not reorder its input", () => {
    const input = [...PROBLEMS];
    sortProblems(input);
    expect(input).toEqual(PROBLEMS);
  });
});

describe("the catalog", () => {
  test("codes are permanent names; this list changes only by adding", () => {
    expect(Object.keys(PROBLEM_CODES)).toEqual([
      "unreadable_file",
      "invalid_json",
      "not_an_array",
      "not_an_object",
      "missing_field",
      "unknown_field",
      "invalid_type",
      "invalid_value",
      "duplicate_id",
      "dangling_reference",
      "record_too_large",
      "no_sources",
      "offset_mismatch",
      "unsupported_file",
      "invalid_market",
      "duplicate_market",
      "country_in_two_markets",
      "cinema_outside_markets",
    ]);
  });

  test.each([
    [["location", "postcode"], "location.postcode"],
    [["attributeIds", 3], "attributeIds[3]"],
    [[], ""],
    [["a", 0, "b", 1], "a[0].b[1]"],
  ] as Array<[PropertyKey[], string]>)("formatPath %j → %s", (path, text) => {
    expect(formatPath(path)).toBe(text);
  });
});
