/**
 * The build's report lists every problem of every record in one run (decision: validation of
 * source data): a record that fails a field rule is still checked for duplicate ids and dangling
 * references, a reference to a record that failed is not called dangling, date-time problems show
 * the value received, and an unknown field close to a known one suggests it. Which files of the
 * data folder are sources, problems or named as not read (decision: what the build reads).
 */
import { symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { listDataFolder } from "../build/load/source-files.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import type { Problem } from "../build/report/problems.js";
import { runBuild } from "../build/run-build.js";
import { makeTempDir, removeDir, toNdjson, validRecords, writeFiles } from "./helpers/build-helpers.js";

let work: string;
beforeAll(() => {
  work = makeTempDir("report");
});
afterAll(() => removeDir(work));

async function problemsOf(
  name: string,
  files: Record<string, string>,
): Promise<Array<[string, string, number | null, string, string]>> {
  const dataDir = path.join(work, name);
  writeFiles(dataDir, files);
  const result = await runBuild({
    dataDir,
    output: createDiskWriter(path.join(work, `${name}-out`)),
    validateWorkers: 0,
  });
  if (result.ok) throw new Error("the build must fail");
  const at = (p: Problem) =>
    [p.code, path.relative(dataDir, p.file), p.line ?? p.index ?? null, p.path, p.message] as [
      string,
      string,
      number | null,
      string,
      string,
    ];
  return result.problems.map(at);
}

const { showtimes, cinemas, films, attributes } = validRecords();
const base = {
  "cinemas/c.json": JSON.stringify([cinemas]),
  "films/f.json": JSON.stringify([films]),
  "attributes/a.json": JSON.stringify([
    attributes,
    { ...attributes, id: "lang-en", kind: "language", name: "English" },
  ]),
};

test(
  "a showtime with a bad date-time, an id used twice and a film that does not exist: all three at " + "once",
  async () => {
    const problems = await problemsOf("three", {
      ...base,
      "showtimes/s.ndjson": toNdjson([showtimes, { ...showtimes, startsAt: "2026-02-30T20:00Z", filmId: "film-nope" }]),
    });
    expect(problems).toEqual([
      [
        "invalid_value",
        "showtimes/s.ndjson",
        2,
        "startsAt",
        'is not a valid date-time (day 30 does not exist in month 02); received "2026-02-30T20:00Z"',
      ],
      ["duplicate_id", "showtimes/s.ndjson", 2, "id", '"st-1" is already used by a valid record'],
      ["dangling_reference", "showtimes/s.ndjson", 2, "filmId", 'refers to film "film-nope", which does not exist'],
    ]);
  },
);

test(
  "a showtime of a film that failed validation is not dangling: the film's own problem is the one " + "reported",
  async () => {
    const problems = await problemsOf("invalid-target", {
      ...base,
      "films/f.json": JSON.stringify([{ ...films, title: "" }]),
      "showtimes/s.ndjson": toNdjson([showtimes]),
    });
    expect(problems.map(([code, file, , field]) => [code, file, field])).toEqual([
      ["invalid_value", "films/f.json", "title"],
    ]);
  },
);

test("two invalid records with one id: a duplicate naming the first", async () => {
  const problems = await problemsOf("two-invalid", {
    ...base,
    "showtimes/s.ndjson": toNdjson([
      { ...showtimes, id: "st-9", screenName: "" },
      { ...showtimes, id: "st-9", screenName: "" },
    ]),
  });
  expect(problems.filter(([code]) => code === "duplicate_id")).toEqual([
    [
      "duplicate_id",
      "showtimes/s.ndjson",
      2,
      "id",
      '"st-9" is already used (first at showtimes/s.ndjson:1)'.replace(
        "showtimes/s.ndjson",
        path.join(work, "two-invalid", "showtimes/s.ndjson"),
      ),
    ],
  ]);
});

test.each([
  ["screen", "screenName"],
  ["startsat", "startsAt"],
  ["filmID", "filmId"],
  ["atributeIds", "attributeIds"],
])("an unknown field %s suggests %s", async (typo, meant) => {
  const { [meant as keyof typeof showtimes]: value, ...rest } = showtimes;
  const record = { ...rest, [typo]: value, ...(meant === "screenName" ? {} : { [meant]: value }) };
  const problems = await problemsOf(`typo-${typo}`, { ...base, "showtimes/s.ndjson": toNdjson([record]) });
  expect(problems).toContainEqual([
    "unknown_field",
    "showtimes/s.ndjson",
    1,
    typo,
    `is not a field of this record: did you mean ${meant}?`,
  ]);
});

test("a nested unknown field suggests from its own object; a name close to nothing suggests nothing", async () => {
  const cinema = { ...cinemas, location: { ...cinemas.location, postCode: "X" }, extra: 1 };
  const problems = await problemsOf("nested", {
    ...base,
    "cinemas/c.json": JSON.stringify([cinema]),
    "showtimes/s.ndjson": toNdjson([showtimes]),
  });
  expect(
    problems.filter(([code]) => code === "unknown_field").map(([, , , field, message]) => [field, message]),
  ).toEqual([
    ["location.postCode", "is not a field of this record: did you mean postcode?"],
    ["extra", "is not a field of this record (check the spelling)"],
  ]);
});

test("the data folder's listing: sources by extension, other files a problem, the rest named once", async () => {
  const dataDir = path.join(work, "listing");
  writeFiles(dataDir, {
    "showtimes/a.ndjson": "",
    "showtimes/b/c.jsonl": "",
    "showtimes/d.json": "",
    "showtimes/e.csv": "",
    "showtimes/.git/objects/ab/cd": "",
    "showtimes/.git/HEAD": "",
    "cinemas/.DS_Store": "",
    films: "a file where a folder belongs",
    "screenings/2026.ndjson": "",
    "demo-access.json": "{}",
  });
  // A resource folder may be a link to a folder kept elsewhere.
  symlinkSync(path.join(dataDir, "screenings"), path.join(dataDir, "attributes"));
  const problems: Problem[] = [];
  const { sources, unread } = await listDataFolder(dataDir, problems);
  expect(sources.attributes.map((file) => path.relative(dataDir, file))).toEqual(["attributes/2026.ndjson"]);
  expect(sources.films).toEqual([]);
  expect(sources.showtimes.map((file) => path.relative(dataDir, file))).toEqual([
    "showtimes/a.ndjson",
    "showtimes/b/c.jsonl",
    "showtimes/d.json",
  ]);
  expect(unread).toEqual(["cinemas/.DS_Store", "demo-access.json", "films", "screenings/", "showtimes/.git/"]);
  expect(problems.map((p) => [p.code, path.relative(dataDir, p.file)])).toEqual([
    ["unsupported_file", "showtimes/e.csv"],
  ]);
});
