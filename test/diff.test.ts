/**
 * `npm run diff` (docs/operations.md, "Snapshot diffs"): argument rules, field-level changes, the merge-join against a
 * brute-force oracle (records compared by id), the disk spill of the id pairing, and the CLI's
 * output and exit codes.
 */
import { readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseDiffArgs, UsageError } from "../scripts/diff/args.js";
import { diffFields } from "../scripts/diff/field-diff.js";
import { MovePairer, type Side } from "../scripts/diff/pair-moves.js";
import { findRemovalsOver, formatText, type SnapshotDiff } from "../scripts/diff/report.js";
import { runDiff } from "../scripts/diff/run-diff.js";
import { instantKeyOf } from "../api/_core/format/primitives/date-time.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { makeTempDir, removeDir, runScript } from "./helpers/build-helpers.js";
import {
  buildDataset,
  compareInstants,
  createRandom,
  generateDataset,
  writeDataset,
  type Dataset,
  type Resource,
} from "./helpers/dataset.js";

const RESOURCES: Resource[] = ["showtimes", "cinemas", "films", "attributes"];

/** `npm run diff -- ARGS`, as its bundle (helpers/entry-bundles.ts). */
const runCli = (args: string[]) => runScript("scripts/diff.ts", args);

/** The oracle: records matched by id, changed when their data differ (key order aside). */
function expectedCounts(from: Dataset, to: Dataset) {
  return Object.fromEntries(
    RESOURCES.map((resource) => {
      const before = new Map(from[resource].map((r) => [r.id, r]));
      const after = new Map(to[resource].map((r) => [r.id, r]));
      const removed = [...before.keys()].filter((id) => !after.has(id)).length;
      const added = [...after.keys()].filter((id) => !before.has(id)).length;
      const changed = [...after].filter(
        ([id, r]) =>
          before.has(id) &&
          !isDeepStrictEqual(JSON.parse(JSON.stringify(before.get(id))), JSON.parse(JSON.stringify(r))),
      ).length;
      return [resource, { added, removed, changed }];
    }),
  );
}

/** A valid edit of a dataset: showtimes removed, added and moved, and field changes in every resource. */
function editDataset(base: Dataset, seed: number): Dataset {
  const rng = createRandom(seed);
  const copy: Dataset = JSON.parse(JSON.stringify(base));
  copy.showtimes = copy.showtimes.filter(() => !rng.chance(0.1));
  for (let i = 0; i < 1 + rng.int(8); i++) copy.showtimes.push({ ...rng.pick(base.showtimes), id: `new-${seed}-${i}` });
  for (const showtime of copy.showtimes) {
    if (rng.chance(0.1)) showtime.startsAt = `2026-12-0${1 + rng.int(9)}T1${rng.int(10)}:00:00Z`;
    if (rng.chance(0.05)) showtime.screenName = `Screen ${rng.int(99)}`;
    if (rng.chance(0.05))
      showtime.attributeIds = [...showtime.attributeIds]
        .reverse()
        .concat(showtime.attributeIds.length ? [] : ["lang-en"]);
  }
  for (const film of copy.films) if (rng.chance(0.3)) film.durationMinutes = 60 + rng.int(100);
  for (const cinema of copy.cinemas) if (rng.chance(0.3)) cinema.location.postcode = `Q${rng.int(999)}`;
  copy.attributes[rng.int(copy.attributes.length)]!.name = "Renamed";
  return copy;
}

describe("diff arguments", () => {
  const ok = ["--from", "a", "--to", "b"];
  test.each([
    {
      args: ok,
      expected: { from: "a", to: "b", json: false, maxChanges: 20 },
      reason: "defaults: text, 20 changes per resource",
    },
    {
      args: [...ok, "--json", "--max-changes", "0"],
      expected: { json: true, maxChanges: 0 },
      reason: "0 lists counts only",
    },
    {
      args: [...ok, "--fail-if-removed-over", "20%"],
      expected: { failIfRemovedOver: 20 },
      reason: "the form of the operator's daily workflow",
    },
    {
      args: [...ok, "--fail-if-removed-over", "12.5"],
      expected: { failIfRemovedOver: 12.5 },
      reason: "the % sign is optional",
    },
    {
      args: [...ok, "--fail-if-removed-over", "100%"],
      expected: { failIfRemovedOver: 100 },
      reason: "the upper bound",
    },
  ])("accepts $args ($reason)", ({ args, expected }) => {
    expect(parseDiffArgs(args)).toMatchObject(expected);
  });

  test.each([
    { args: ["--to", "b"], message: "--from DIR is required", reason: "both sides are needed" },
    { args: ["--from", "", "--to", "b"], message: "--from must not be empty", reason: "an empty path is a mistake" },
    {
      args: [...ok, "--fail-if-removed-over", "101%"],
      message: "percentage from 0% to 100%",
      reason: "just past the bound",
    },
    { args: [...ok, "--fail-if-removed-over=-1%"], message: "percentage", reason: "negative share" },
    {
      args: [...ok, "--fail-if-removed-over", "-1%"],
      message: "argument is ambiguous",
      reason: "node's parser reads -1% as an option; still one line",
    },
    { args: [...ok, "--fail-if-removed-over", "twenty"], message: "percentage", reason: "not a number" },
    {
      args: [...ok, "--max-changes", "1.5"],
      message: "--max-changes must be a whole number",
      reason: "fractions make no sense",
    },
    { args: [...ok, "--verbose"], message: "Unknown option '--verbose'", reason: "typos are refused, not ignored" },
    { args: [...ok, "extra"], message: "extra", reason: "stray positional argument" },
  ])("refuses $args ($reason)", ({ args, message }) => {
    expect(() => parseDiffArgs(args)).toThrow(UsageError);
    expect(() => parseDiffArgs(args)).toThrow(message);
    expect(() => parseDiffArgs(args)).not.toThrow(/\n/);
  });
});

describe("field-level changes", () => {
  test.each([
    { from: { a: 1 }, to: { a: 2 }, changes: [{ path: "a", from: 1, to: 2 }], reason: "a scalar change" },
    {
      from: { l: { postcode: "A" } },
      to: { l: { postcode: "B" } },
      changes: [{ path: "l.postcode", from: "A", to: "B" }],
      reason: "nested paths join with dots",
    },
    {
      from: { ids: ["a", "b"] },
      to: { ids: ["b", "a"] },
      changes: [{ path: "ids", from: ["a", "b"], to: ["b", "a"] }],
      reason: "arrays compare as whole values, order included",
    },
    { from: { a: 1 }, to: { a: 1, b: 2 }, changes: [{ path: "b", to: 2 }], reason: "an added field has no from" },
    { from: { a: 1, b: 2 }, to: { a: 1 }, changes: [{ path: "b", from: 2 }], reason: "a removed field has no to" },
    { from: { a: 1, b: { c: 2 } }, to: { b: { c: 2 }, a: 1 }, changes: [], reason: "key order is not a change" },
    {
      from: { "x y": 1 },
      to: { "x y": 2 },
      changes: [{ path: '"x y"', from: 1, to: 2 }],
      reason: "odd keys are quoted",
    },
    { from: { a: null }, to: { a: 0 }, changes: [{ path: "a", from: null, to: 0 }], reason: "null and 0 differ" },
  ])("$reason", ({ from, to, changes }) => {
    expect(diffFields(from, to)).toEqual(changes);
  });
});

describe("--fail-if-removed-over", () => {
  function diffWith(removed: number, from: number, expired = 0): SnapshotDiff {
    const none = { added: 0, removed: 0, changed: 0, expired: 0, changes: [], omitted: 0, count: { from: 10, to: 10 } };
    return {
      showtimes: { ...none, removed, expired, count: { from, to: from - removed - expired } },
      cinemas: none,
      films: none,
      attributes: none,
    };
  }

  test.each([
    { removed: 20, from: 100, percent: 20, messages: [], reason: "exactly at the bound is allowed" },
    {
      removed: 21,
      from: 100,
      percent: 20,
      messages: ["21.0% of showtimes were removed (21 of 100), more than the 20% allowed"],
      reason: "just past the bound",
    },
    { removed: 0, from: 0, percent: 0, messages: [], reason: "an empty resource removes nothing" },
    {
      removed: 1,
      from: 1000,
      percent: 0,
      messages: ["0.1% of showtimes were removed (1 of 1000), more than the 0% allowed"],
      reason: "0% forbids any removal",
    },
  ])("$removed of $from at $percent% → $messages ($reason)", ({ removed, from, percent, messages }) => {
    expect(findRemovalsOver(diffWith(removed, from), percent)).toEqual(messages);
  });

  // decision: expired showtimes — the share is of the old showtimes that had not expired.
  test.each([
    { removed: 16, from: 100, expired: 20, messages: [], reason: "16 of 80 current is exactly 20%" },
    {
      removed: 17,
      from: 100,
      expired: 20,
      messages: ["21.3% of showtimes were removed (17 of the 80 not expired), more than the 20% allowed"],
      reason: "17 of 80 is past the bound",
    },
    { removed: 0, from: 100, expired: 100, messages: [], reason: "everything expired removes nothing" },
  ])("$removed removed and $expired expired of $from → $messages ($reason)", ({ removed, from, expired, messages }) => {
    expect(findRemovalsOver(diffWith(removed, from, expired), 20)).toEqual(messages);
  });
});

describe("pairing unmatched records by id", () => {
  function pairAll(entries: Array<[Side, string, number]>, memoryEntries?: number) {
    const pairer = new MovePairer(entries.length, memoryEntries);
    for (const [side, id, position] of entries) pairer.add(side, id, position);
    const seen: string[] = [];
    pairer.finish({
      moved: (id, a, b) => seen.push(`moved ${id} ${a}→${b}`),
      removed: (id, p) => seen.push(`removed ${id} ${p}`),
      added: (id, p) => seen.push(`added ${id} ${p}`),
    });
    return seen.sort();
  }

  test("spilling to disk pairs exactly as in memory (ids with newlines, quotes and astral characters)", () => {
    const rng = createRandom(7);
    const ids = Array.from({ length: 300 }, (_, i) => [`s-${i}`, `new\nline ${i}`, `"q" ${i}`, `🎟${i}`][i % 4]!);
    const entries: Array<[Side, string, number]> = [];
    ids.forEach((id, i) => {
      if (rng.chance(0.7)) entries.push(["from", id, i]);
      if (rng.chance(0.7)) entries.push(["to", id, 1000 + i]);
    });
    const inMemory = pairAll(entries);
    expect(inMemory.some((line) => line.startsWith("moved"))).toBe(true);
    expect(pairAll(entries, 16)).toEqual(inMemory);
  });
});

describe("diffing snapshots", () => {
  let root: string;
  const base = generateDataset({ seed: 11, showtimes: 240 });
  const edits = [101, 102, 103].map((seed) => ({ seed, dataset: editDataset(base, seed) }));
  const snapshot = (name: string) => path.join(root, name);

  beforeAll(async () => {
    root = makeTempDir("diff");
    await buildDataset(base, root, snapshot("base"), "data-base");
    for (const { seed, dataset } of edits) await buildDataset(dataset, root, snapshot(`edit-${seed}`), `data-${seed}`);
  });
  afterAll(() => removeDir(root));

  test.each([101, 102, 103])("counts match the by-id oracle (edit seed %i)", async (seed) => {
    const edited = edits.find((e) => e.seed === seed)!.dataset;
    const result = await runDiff({ from: snapshot("base"), to: snapshot(`edit-${seed}`), maxChanges: 5 });
    const counts = Object.fromEntries(
      RESOURCES.map((r) => [r, { added: result[r].added, removed: result[r].removed, changed: result[r].changed }]),
    );
    expect(counts).toEqual(expectedCounts(base, edited));
    for (const r of RESOURCES) {
      expect(result[r].changes.length).toBe(Math.min(5, result[r].added + result[r].removed + result[r].changed));
      expect(result[r].omitted).toBe(
        result[r].added + result[r].removed + result[r].changed - result[r].changes.length,
      );
    }
  });

  test("a moved showtime is one change of startsAt, not a removal and an addition", async () => {
    const moved: Dataset = JSON.parse(JSON.stringify(base));
    const target = moved.showtimes[3]!;
    const before = target.startsAt;
    target.startsAt = "2027-01-01T00:00:00Z";
    await buildDataset(moved, root, snapshot("moved"), "data-moved");
    const result = await runDiff({ from: snapshot("base"), to: snapshot("moved"), maxChanges: 20 });
    expect(result.showtimes).toMatchObject({ added: 0, removed: 0, changed: 1 });
    expect(result.showtimes.changes).toEqual([
      { kind: "changed", id: target.id, fields: [{ path: "startsAt", from: before, to: "2027-01-01T00:00:00Z" }] },
    ]);
  });

  test("the text report gives counts, field changes in the documented form, and the rest as a count", async () => {
    const films: Dataset = JSON.parse(JSON.stringify(base));
    const film = films.films.find((f) => f.id === "film-1")!;
    const before = film.durationMinutes;
    film.durationMinutes = 125;
    await buildDataset(films, root, snapshot("films"), "data-films");
    const text = formatText(await runDiff({ from: snapshot("base"), to: snapshot("films"), maxChanges: 20 }));
    expect(text).toContain("films: 0 added, 0 removed, 1 changed");
    expect(text).toContain(`film film-1: durationMinutes ${before} → 125`);
    expect(text).toContain("showtimes: no changes (240 → 240)");
    // One change listed per resource: each resource with more says how many it left out.
    const capped = formatText(await runDiff({ from: snapshot("base"), to: snapshot("edit-101"), maxChanges: 1 }));
    const counts = expectedCounts(base, edits[0]!.dataset);
    const omitted = RESOURCES.map((r) => counts[r]!.added + counts[r]!.removed + counts[r]!.changed - 1).filter(
      (n) => n > 0,
    );
    expect(capped.split("\n").filter((line) => line.startsWith("  … and "))).toEqual(
      omitted.map((n) => `  … and ${n} more`),
    );
  });

  // decision: expired showtimes
  test(
    "showtimes left out as past by --drop-before are expired, not removed, and not held against the " + "threshold",
    async () => {
      const edited = edits[0]!.dataset;
      const dropBefore = [...base.showtimes].sort((a, b) => compareInstants(a.startsAt, b.startsAt))[120]!.startsAt;
      const dataDir = path.join(root, "data-dropped");
      writeDataset(dataDir, edited);
      const built = await runBuild({
        dataDir,
        output: createDiskWriter(snapshot("dropped")),
        gzipLevel: 1,
        gzipWorkers: 0,
        dropBefore: { text: dropBefore, key: instantKeyOf(dropBefore) },
      });
      expect(built.ok).toBe(true);
      const kept: Dataset = {
        ...edited,
        showtimes: edited.showtimes.filter((s) => compareInstants(s.startsAt, dropBefore) >= 0),
      };
      // The manifest records the earliest start kept: what the diff measures expiry against.
      const recorded = built.ok && "manifest" in built ? built.manifest.dropBefore! : "";
      expect(compareInstants(recorded, dropBefore)).toBeGreaterThanOrEqual(0);
      const keptIds = new Set(kept.showtimes.map((s) => s.id));
      const expired = base.showtimes.filter((s) => !keptIds.has(s.id) && compareInstants(s.startsAt, recorded) < 0);
      const oracle = expectedCounts(base, kept).showtimes!;
      const result = await runDiff({ from: snapshot("base"), to: snapshot("dropped"), maxChanges: 3 });
      expect(expired.length).toBeGreaterThan(50);
      expect(result.showtimes).toMatchObject({
        ...oracle,
        removed: oracle.removed - expired.length,
        expired: expired.length,
      });
      expect(result.showtimes.changes.every((c) => !expired.some((s) => s.id === c.id))).toBe(true);
      expect(formatText(result)).toContain(
        `showtimes: ${oracle.added} added, ${oracle.removed - expired.length} removed, ` +
          `${oracle.changed} changed, ${expired.length} expired (240 → ${kept.showtimes.length})`,
      );
      // Half the showtimes are gone, yet only the real removals count against a 20% threshold.
      expect(findRemovalsOver(result, 20)).toEqual([]);
      // Without a drop-before on the newer side nothing is expired (the report's form is unchanged).
      const plain = await runDiff({ from: snapshot("base"), to: snapshot("edit-101"), maxChanges: 0 });
      expect(plain.showtimes.expired).toBe(0);
    },
  );

  test("data folders are built to temporary snapshots first", async () => {
    const dataDir = path.join(root, "plain-data");
    writeDataset(dataDir, edits[0]!.dataset);
    const result = await runDiff({ from: snapshot("base"), to: dataDir, maxChanges: 0 });
    // The same counts as against the built snapshot of that data: the folder was built, then compared.
    const counts = Object.fromEntries(
      RESOURCES.map((r) => [r, { added: result[r].added, removed: result[r].removed, changed: result[r].changed }]),
    );
    expect(counts).toEqual(expectedCounts(base, edits[0]!.dataset));
  });

  // Concurrent: each case is a separate process, most of its time spent starting up.
  describe.concurrent("the CLI", () => {
    test.each([
      {
        name: "identical snapshots",
        args: () => ["--from", snapshot("base"), "--to", snapshot("base")],
        code: 0,
        reason: "0: nothing changed",
      },
      {
        name: "changed snapshots",
        args: () => ["--from", snapshot("base"), "--to", snapshot("edit-101")],
        code: 1,
        reason: "1: changes to review",
      },
      {
        name: "removals over the threshold",
        args: () => ["--from", snapshot("base"), "--to", snapshot("edit-101"), "--fail-if-removed-over", "1%"],
        code: 4,
        reason: "4: more vanished than allowed",
      },
      {
        name: "a missing folder",
        args: () => ["--from", snapshot("nope"), "--to", snapshot("base")],
        code: 2,
        reason: "2: error",
      },
      {
        name: "a bad option",
        args: () => ["--from", "a", "--to", "b", "--max-changes", "x"],
        code: 2,
        reason: "2: usage error",
      },
    ])("$name exits $code ($reason)", async ({ args, code }) => {
      const result = await runCli(args());
      expect(result.code).toBe(code);
      if (code === 2) {
        expect(result.stderr.trim().split("\n")).toHaveLength(1);
        expect(result.stderr).not.toMatch(/\n\s+at /);
      }
    });

    test("--json gives one document with every resource", async () => {
      const result = await runCli([
        "--from",
        snapshot("base"),
        "--to",
        snapshot("edit-102"),
        "--json",
        "--max-changes",
        "2",
      ]);
      const document = JSON.parse(result.stdout);
      expect(Object.keys(document.resources)).toEqual(["showtimes", "cinemas", "films", "attributes"]);
      expect(document.resources.showtimes).toMatchObject(expectedCounts(base, edits[1]!.dataset).showtimes!);
      expect(document.resources.showtimes.changes).toHaveLength(2);
    });

    test("a truncated data file is one line of error, exit 2", async () => {
      const broken = snapshot("broken");
      await buildDataset(base, root, broken, "data-broken");
      const records = path.join(broken, "records.blocks");
      const size = readFileSync(records).length;
      truncateSync(records, size - 8);
      const result = await runCli(["--from", snapshot("base"), "--to", broken]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`diff: --to: records.blocks: has ${size - 8} bytes, manifest.json says ${size}\n`);
    });

    test("a folder with an unreadable manifest is an error, not a data folder", async () => {
      const dir = snapshot("bad-manifest");
      await buildDataset(base, root, dir, "data-bad-manifest");
      writeFileSync(path.join(dir, "manifest.json"), "{");
      const result = await runCli(["--from", dir, "--to", snapshot("base")]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe("diff: --from: manifest.json: is not JSON\n");
      rmSync(dir, { recursive: true, force: true });
    });
  });
});
