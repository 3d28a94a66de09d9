/**
 * The build CLI as operators run it (docs/operations.md, "The operator's workflow"; the record
 * rules of spec §2 and decision: validation of source data): exit codes, the problem report,
 * an untouched previous snapshot after a failure, and byte-identical output whatever the
 * file layout, time zone or locale.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BUILD_FLAGS, readBuildOptions, UsageError } from "../build/cli-options.js";
import {
  fixtureRecords,
  GOLDEN_FIXTURE,
  hashTree,
  makeTempDir,
  removeDir,
  runBuildCli,
  toNdjson,
  validRecords,
  writeFiles,
  type CliResult,
} from "./helpers/build-helpers.js";

let work: string;
/** The golden fixture built plainly: the reference the other builds are compared with. */
let plain: { dir: string; result: CliResult; tree: Record<string, string> };

beforeAll(async () => {
  work = makeTempDir("build-cli");
  const dir = path.join(work, "plain");
  const result = await runBuildCli(["--data", GOLDEN_FIXTURE, "--out", dir]);
  plain = { dir, result, tree: existsSync(dir) ? hashTree(dir) : {} };
});
afterAll(() => removeDir(work));

const STACK_LINE = "    at ";

/** Recursively reverses key order: field order in the sources must not matter. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reverseKeys(v)]),
  );
}

/** The golden fixture's records in other files, orders, key orders, formats and line endings. */
function writeReshuffledFixture(root: string): void {
  const showtimes = fixtureRecords("showtimes").reverse().map(reverseKeys);
  const cinemas = fixtureRecords("cinemas").reverse();
  writeFiles(root, {
    ...Object.fromEntries(cinemas.map((c, i) => [`cinemas/${i}/only.json`, JSON.stringify([c])])),
    "films/all-films.json": JSON.stringify(fixtureRecords("films").reverse().map(reverseKeys), null, 4),
    "attributes/z.ndjson": `\n${toNdjson(fixtureRecords("attributes").reverse())}\n\n`,
    "showtimes/zz-every-third.ndjson": toNdjson(showtimes.filter((_, i) => i % 3 === 0)),
    "showtimes/a/nested/part.json": JSON.stringify(showtimes.filter((_, i) => i % 3 === 1)),
    // Windows line endings, as an editor on another machine would save them.
    "showtimes/m.ndjson": toNdjson(showtimes.filter((_, i) => i % 3 === 2)).replaceAll("\n", "\r\n"),
  });
}

describe("a valid dataset", () => {
  test("builds with exit 0 and a summary on stdout", () => {
    expect(plain.result.code).toBe(0);
    expect(plain.result.stdout).toContain("3 cinemas, 3 films, 40 showtimes, 8 attributes");
    expect(plain.tree).toHaveProperty(["manifest.json"]);
  });
});

describe("file modes", () => {
  test(
    "under an owner-only umask every file and folder is still readable by others (decision: gateway " + "secret)",
    async () => {
      const dir = path.join(work, "umask");
      // The child takes the umask it is started with.
      const before = process.umask(0o077);
      const build = runBuildCli(["--data", GOLDEN_FIXTURE, "--out", dir]);
      process.umask(before);
      expect((await build).code).toBe(0);
      const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
      expect(mode(dir)).toBe("755");
      for (const file of readdirSync(dir)) expect(`${file} ${mode(path.join(dir, file))}`).toBe(`${file} 644`);
    },
  );
});

describe("an invalid dataset", () => {
  const { showtimes, cinemas, films, attributes } = validRecords();
  const st = (patch: Record<string, unknown>) => ({
    ...showtimes,
    cinemaId: "gb-1",
    filmId: "film-1",
    attributeIds: ["format-2d"],
    ...patch,
  });
  const DATASET = {
    "data/cinemas/gb.json": JSON.stringify(
      [
        { ...cinemas, id: "gb-1" },
        { ...cinemas, id: "gb-2", location: { ...cinemas.location, postcode: "1" } },
        { ...cinemas, id: "gb-1" },
      ],
      null,
      2,
    ),
    "data/cinemas/fr.ndjson": `${JSON.stringify({ ...cinemas, id: "fr-1" })}\n\n{"id": "fr-2", "name": \n`,
    "data/films/films.json": JSON.stringify([
      { ...films, id: "film-1" },
      { ...films, id: "film-2", runtime: 90 },
    ]),
    "data/attributes/all.ndjson": toNdjson([
      attributes,
      { ...attributes, id: "lang-en", kind: "language", name: "English" },
    ]),
    "data/showtimes/a.ndjson": toNdjson([
      st({ id: "st-1" }),
      st({ id: "st-2", cinemaId: "cinema-nope" }),
      st({ id: "st-3", filmId: "film-ghost" }),
      st({ id: "st-4", attributeIds: ["format-2d", "attr-missing"] }),
      st({ id: "st-1", cinemaId: "fr-1" }),
      st({ id: "st-5", startsAt: "2023-02-29T20:00Z" }),
    ]),
    "data/showtimes/b.json": '{"not": "an array"}\n',
    "data/showtimes/c.json": '[\n  {"id": "x"},\n  {"id": "y",]\n',
    // A file the build does not read, where it looks for sources: never dropped without a word.
    "data/showtimes/extra.csv": "id,startsAt\nst-9,2026-03-06T20:00Z\n",
  };

  // [where (file:line or file[index]), field path, rule/value fragment, code]
  const EXPECTED: Array<[string, string, string, string]> = [
    ["data/cinemas/fr.ndjson:3", "", "is not valid JSON", "invalid_json"],
    ["data/cinemas/gb.json[1]", "location.postcode", "must be 2..16 characters long (got 1)", "invalid_value"],
    ["data/cinemas/gb.json[2]", "id", '"gb-1" is already used (first at data/cinemas/gb.json[0])', "duplicate_id"],
    ["data/films/films.json[1]", "runtime", "is not a field of this record", "unknown_field"],
    [
      "data/showtimes/a.ndjson:2",
      "cinemaId",
      'refers to cinema "cinema-nope", which does not exist',
      "dangling_reference",
    ],
    ["data/showtimes/a.ndjson:3", "filmId", 'refers to film "film-ghost", which does not exist', "dangling_reference"],
    [
      "data/showtimes/a.ndjson:4",
      "attributeIds[1]",
      'refers to attribute "attr-missing", which does not exist',
      "dangling_reference",
    ],
    ["data/showtimes/a.ndjson:5", "id", '"st-1" is already used (first at data/showtimes/a.ndjson:1)', "duplicate_id"],
    ["data/showtimes/a.ndjson:6", "startsAt", "2023 is not a leap year", "invalid_value"],
    ["data/showtimes/b.json", "", "must hold a JSON array of records", "not_an_array"],
    ["data/showtimes/c.json:3", "", "is not valid JSON", "invalid_json"],
    ["data/showtimes/extra.csv", "", "is not a source file (.json, .ndjson or .jsonl)", "unsupported_file"],
  ];

  let dir: string;
  let previous: Record<string, string>;
  let result: CliResult;
  let checked: CliResult;
  let reported: Array<{ head: string; where: string }>;

  beforeAll(async () => {
    dir = path.join(work, "invalid");
    writeFiles(dir, DATASET);
    // A servable snapshot from an earlier, good build.
    cpSync(plain.dir, path.join(dir, "out"), { recursive: true });
    previous = hashTree(path.join(dir, "out"));
    expect(previous).toEqual(plain.tree);
    result = await runBuildCli(["--data", "data", "--out", "out"], { cwd: dir });
    checked = await runBuildCli(["--data", "data", "--out", "out", "--check"], { cwd: dir });
    const lines = result.stderr.split("\n");
    reported = lines.flatMap((line, i) =>
      line.startsWith("✖ ") ? [{ head: line, where: lines[i + 1]?.replace(/^ {2}→ /, "") ?? "" }] : [],
    );
  });

  test("exits 1", () => {
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
  });

  test.each(EXPECTED)("reports %s %s: %s", (where, field, fragment, code) => {
    const location = field === "" ? where : `${where} ${field}`;
    const match = reported.find((p) => p.where === location);
    expect(match, `no problem at ${location} in:\n${result.stderr}`).toBeDefined();
    expect(match!.head).toContain(fragment);
    expect(match!.head).toContain(`[${code}]`);
  });

  test("reports every problem once, nothing more, and a summary counting each code", () => {
    expect(reported).toHaveLength(EXPECTED.length);
    expect(result.stderr.trimEnd().split("\n").at(-1)).toBe(
      "12 problems (dangling_reference 3, duplicate_id 2, invalid_json 2, invalid_value 2, not_an_array 1, " +
        "unknown_field 1, unsupported_file 1); nothing was written.",
    );
  });

  test("--check reports the same problems, with the same exit code", () => {
    expect(checked.code).toBe(1);
    expect(checked.stdout).toBe("");
    // The same report after the progress lines (whose rates and times differ from run to run).
    const report = (stderr: string) => stderr.slice(stderr.indexOf("✖ "));
    expect(report(checked.stderr)).toBe(report(result.stderr));
  });

  test("prints no stack trace", () => {
    expect(result.stderr).not.toContain(STACK_LINE);
  });

  test("leaves the previous snapshot byte-identical and no staging folders behind (the build and --check)", () => {
    expect(hashTree(path.join(dir, "out"))).toEqual(previous);
    expect(readdirSync(dir).sort()).toEqual(["data", "out"]);
  });

  test("a data folder with no sources is exit 1 with no_sources", async () => {
    const empty = await runBuildCli(["--data", "does-not-exist", "--out", "out2"], { cwd: dir });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("[no_sources]");
    expect(existsSync(path.join(dir, "out2"))).toBe(false);
  });
});

describe("usage errors", () => {
  test.concurrent.each([
    [["--bogus"], "bogus", "an unknown flag (usually a typo)"],
    [["--data"], "--data", "a flag without its value"],
    [["--gzip-level", "0"], "--gzip-level", "a gzip level outside 1..9"],
    [["--data="], "--data", "an empty folder name"],
    [["--new-history", "--previous", "x"], "--new-history", "a new history and a previous one at once"],
  ])("%j exits 2 with a one-line message naming %s (%s)", async (args, flag) => {
    const result = await runBuildCli(["--out", path.join(work, "never"), ...args]);
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^build: /);
    expect(lines[0]).toContain(flag);
    expect(lines[1]).toMatch(/^usage: /);
    expect(result.stderr).not.toContain(STACK_LINE);
    expect(existsSync(path.join(work, "never"))).toBe(false);
  });

  test("an unexpected failure (output cannot be created) exits 2 with one line and no stack", async () => {
    const blocked = path.join(work, "blocked");
    writeFiles(blocked, { "a-file": "not a folder" });
    const result = await runBuildCli([
      "--data",
      GOLDEN_FIXTURE,
      "--out",
      path.join(blocked, "a-file", "out"),
      "--quiet",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^build: failed: /);
    expect(result.stderr).not.toContain(STACK_LINE);
  });
});

describe("determinism", () => {
  test("the same records give byte-identical trees whatever the files, order, time zone or locale", async () => {
    const reshuffled = path.join(work, "reshuffled");
    writeReshuffledFixture(reshuffled);
    const outs = ["reshuffled", "zoned"].map((name) => path.join(work, `det-${name}`));
    const results = await Promise.all([
      runBuildCli(["--data", reshuffled, "--out", outs[0]!, "--quiet"]),
      // The far side of the date line and a locale with unusual case and number rules.
      runBuildCli(["--data", GOLDEN_FIXTURE, "--out", outs[1]!, "--quiet"], {
        env: { TZ: "Pacific/Kiritimati", LC_ALL: "tr_TR.UTF-8", LANG: "tr_TR.UTF-8" },
      }),
    ]);
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    expect(Object.keys(plain.tree).sort()).toEqual([
      "bodies.blocks",
      "bodies.index",
      "history.pages",
      "index.pages",
      "manifest.json",
      "records.blocks",
    ]);
    for (const out of outs) expect(hashTree(out)).toEqual(plain.tree);
  });

  test("building twice into the same --out swaps the new snapshot in, with nothing left over", async () => {
    const parent = path.join(work, "twice");
    const small = path.join(parent, "small-data");
    writeFiles(small, { "attributes/a.json": JSON.stringify([validRecords().attributes]) });
    const out = path.join(parent, "out");
    expect((await runBuildCli(["--data", small, "--out", out, "--quiet"])).code).toBe(0);
    const firstTree = hashTree(out);
    // A new history: carried from the first build, the history (and so the tree) would differ from plain's.
    const second = await runBuildCli(["--data", GOLDEN_FIXTURE, "--out", out, "--quiet", "--new-history"]);
    expect(second.code).toBe(0);
    expect(firstTree).not.toEqual(plain.tree);
    expect(hashTree(out)).toEqual(plain.tree);
    expect(readdirSync(parent).sort()).toEqual(["out", "small-data"]);
  });
});

describe("files in the data folder the build does not read", () => {
  test("a .jsonl file is read as NDJSON; a folder or file beside the resource folders is named, not read", async () => {
    const data = path.join(work, "unread");
    cpSync(GOLDEN_FIXTURE, data, { recursive: true });
    const [first, second] = fixtureRecords("showtimes");
    writeFiles(data, {
      "showtimes/more.jsonl": toNdjson([
        { ...first, id: "st-jsonl-1" },
        { ...second, id: "st-jsonl-2" },
      ]),
      "screenings/2026-03-08.ndjson": toNdjson([{ ...first, id: "st-screening-1" }]),
      "notes.txt": "who sent what\n",
      "showtimes/.DS_Store": "",
    });
    const result = await runBuildCli(["--data", data, "--out", path.join(work, "unread-out"), "--quiet"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("3 cinemas, 3 films, 42 showtimes, 8 attributes");
    expect(result.stdout).toContain("not read by the build: notes.txt, screenings/, showtimes/.DS_Store\n");
  });
});

describe("--check", () => {
  test("valid data: the build's report and exit 0, and nothing written (no output, no staging folder)", async () => {
    const parent = path.join(work, "check");
    mkdirSync(parent);
    const result = await runBuildCli(["--data", GOLDEN_FIXTURE, "--out", path.join(parent, "out"), "--check"]);
    expect(result.code, result.stderr).toBe(0);
    const [head, ...report] = result.stdout.split("\n");
    expect(head).toBe(`checked ${GOLDEN_FIXTURE}: 3 cinemas, 3 films, 40 showtimes, 8 attributes; nothing was written`);
    // The build's report but its history, which compares the snapshot written with the previous one.
    const built = plain.result.stdout.split("\n").slice(1);
    expect(report).toEqual(built.filter((line) => !line.startsWith("history: ")));
    expect(readdirSync(parent)).toEqual([]);
  });
});

describe("--help", () => {
  test("describes every flag the parser accepts, with its default", async () => {
    const result = await runBuildCli(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usage: npm run build -- /);
    const blocks = result.stdout.split(/\n(?= {2}--)/).slice(1);
    const described = new Map(blocks.map((block) => [/^ {2}--([a-z-]+)/.exec(block)![1]!, block]));
    expect([...described.keys()].sort()).toEqual(Object.keys(BUILD_FLAGS).sort());
    for (const [name, option] of Object.entries(BUILD_FLAGS) as Array<[string, { default?: string }]>) {
      const block = described.get(name)!;
      // More than the flag's name and value: what it does.
      expect(block.replace(/^ {2}--\S+( [A-Z.0-9-]+)?/, "").trim().length, name).toBeGreaterThan(20);
      if (option.default !== undefined) expect(block, name).toContain(`(default ${option.default})`);
    }
  });

  test("the parser accepts each flag described, and refuses any other", () => {
    const sample: Record<string, string> = { "drop-before": "2026-11-24T06:00:00Z", "gzip-workers": "2" };
    for (const [name, flag] of Object.entries(BUILD_FLAGS) as Array<[string, { type: string; default?: string }]>) {
      const args = flag.type === "string" ? [`--${name}`, sample[name] ?? flag.default ?? "x"] : [`--${name}`];
      expect(() => readBuildOptions(args), name).not.toThrow();
    }
    expect(() => readBuildOptions(["--rebuild"])).toThrow(UsageError);
  });
});
