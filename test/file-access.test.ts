/**
 * The local server's access file, re-read when it changes (docs/operations.md, "Keys and
 * entitlements"): a file that goes missing, turns unreadable or is broken keeps the last good
 * version in force, and each such problem is reported once, and its end once, however many
 * checks run meanwhile (one every 200 ms while traffic flows). On a clock the test moves.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, test } from "vitest";
import { type AccessSource, fileAccess } from "../api/_core/gate/access.js";
import type { AccessFile } from "../api/_core/gate/access-file.js";
import { hashKey } from "../scripts/keys/commands.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";

const NOW = new Date("2026-11-23T12:00:00Z");
const KEY = "cl_live_file_access_test_key_1";
const dir = makeTempDir("file-access");
afterAll(() => removeDir(dir));

function access(revoked: boolean): string {
  const file: AccessFile = {
    organizations: [{ id: "acme", entitlements: [{ plan: "paid", status: "active" }] }],
    keys: [{ id: "k1", organization: "acme", sha256: hashKey(KEY), revoked }],
  };
  return JSON.stringify(file);
}

let file: string;
let clock: { t: number };
let reports: string[];
let source: AccessSource;
let serial = 0;

beforeEach(() => {
  file = path.join(dir, `access-${++serial}.json`);
  writeFileSync(file, access(false));
  clock = { t: 0 };
  reports = [];
  source = fileAccess(
    file,
    (message) => reports.push(message),
    () => clock.t,
  );
});

/** Whether the access data in force admits KEY (a file source answers at once). */
function admits(): boolean {
  const index = source.current();
  if (index instanceof Promise) throw new Error("a file source answers at once");
  return index.checkKey(KEY, NOW).ok;
}

/** Checks the file `times` times, 200 ms apart, as traffic would; says whether the key is admitted. */
function checks(times: number): boolean {
  let admitted = false;
  for (let i = 0; i < times; i++) {
    clock.t += 200;
    admitted = admits();
  }
  return admitted;
}

describe("an access file that", () => {
  test("goes missing: the last good version stays, reported once; back, reported once", () => {
    rmSync(file);
    expect(checks(20)).toBe(true);
    expect(reports).toEqual([`access file ${file} is missing; the last good version stays in force`]);
    writeFileSync(file, access(true));
    expect(checks(20)).toBe(false);
    expect(reports).toEqual([
      `access file ${file} is missing; the last good version stays in force`,
      `access file ${file} is read again; it is in force`,
    ]);
  });

  test("is moved away and back unchanged: one report each way, the same data in force", () => {
    renameSync(file, `${file}.away`);
    checks(10);
    renameSync(`${file}.away`, file);
    expect(checks(10)).toBe(true);
    expect(reports).toHaveLength(2);
    expect(reports[1]).toBe(`access file ${file} is read again; it is in force`);
  });

  test("is broken, then broken differently, then fixed: one report per problem and one at the end", () => {
    writeFileSync(file, "{ not json");
    expect(checks(10)).toBe(true);
    writeFileSync(file, JSON.stringify({ organizations: "nope", keys: [] }));
    expect(checks(10)).toBe(true);
    writeFileSync(file, access(true));
    expect(checks(10)).toBe(false);
    expect(reports).toEqual([
      expect.stringMatching(/^access file .* is not valid JSON .*; the last good version stays in force$/),
      expect.stringMatching(/\$\.organizations must be an array; the last good version stays in force$/),
      `access file ${file} is read again; it is in force`,
    ]);
  });

  test("cannot be read: reported once, with the reason", () => {
    // A folder in its place: readable by nobody as a file, root included.
    rmSync(file);
    mkdirSync(file);
    expect(checks(10)).toBe(true);
    rmSync(file, { recursive: true });
    writeFileSync(file, access(true));
    expect(checks(10)).toBe(false);
    expect(reports).toEqual([
      `access file ${file} cannot be read (EISDIR); the last good version stays in force`,
      `access file ${file} is read again; it is in force`,
    ]);
  });

  test("changes while valid: no report at all", () => {
    writeFileSync(file, access(true));
    expect(checks(5)).toBe(false);
    expect(reports).toEqual([]);
  });

  test("is checked at most every 200 ms", () => {
    writeFileSync(file, access(true));
    clock.t += 199;
    expect(admits()).toBe(true);
    clock.t += 1;
    expect(admits()).toBe(false);
  });
});
