/**
 * What the operations guide tells an operator holds in the repository: the access files its
 * examples write, and what keys records beside them, are ignored by git (the guide says to keep
 * them out of it), and `npm run keys`
 * states the same time to take effect after a push as the guide and the decisions, the one the
 * Edge Config reader implements (decision: revocation in seconds).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { MAX_AGE_MS } from "../api/_adapters/edge-config-access.js";
import { syncRecordFileOf } from "../scripts/keys/sync-record.js";
import { ROOT } from "./helpers/build-helpers.js";
import { runKeysCli } from "./helpers/keys-cli.js";

const doc = (name: string) => readFileSync(path.join(ROOT, name), "utf8");
/** The committed demo file is the one access file meant to be in git. */
const DEMO_ACCESS_FILE = "data/demo-access.json";
const SECONDS = MAX_AGE_MS / 1000;

/** Every relative path the docs pass to --access, or redirect into `vercel env add`. */
function documentedAccessFiles(): string[] {
  const text = [doc("README.md"), doc("docs/operations.md")].join("\n");
  const paths = [...text.matchAll(/--access[ =]([^\s`'"]+)|< ([^\s`'"]+\.json)/g)].map((m) => (m[1] ?? m[2])!);
  return [...new Set(paths)].filter((file) => !file.startsWith("/") && file !== DEMO_ACCESS_FILE && file !== "FILE");
}

/** The section of a markdown document from a heading (or bold lead) to the next heading. */
function section(text: string, start: string): string {
  const from = text.indexOf(start);
  if (from < 0) throw new Error(`no section ${start}`);
  const next = text.indexOf("\n#", from + start.length);
  return text.slice(from, next < 0 ? undefined : next);
}

test("the access files of the docs' examples are ignored by git", () => {
  const files = documentedAccessFiles();
  expect(files).toContain("ops/access.json");
  // check-ignore prints the ignored ones (and exits 1 when there are none).
  const ignored = spawnSync("git", ["check-ignore", "--no-index", ...files], { cwd: ROOT, encoding: "utf8" });
  expect(ignored.stdout.split("\n").filter(Boolean).sort()).toEqual([...files].sort());
});

test("what a copy records of its pushes beside each access file is ignored by git, the demo's too", () => {
  const records = [...documentedAccessFiles(), DEMO_ACCESS_FILE].map(syncRecordFileOf);
  const ignored = spawnSync("git", ["check-ignore", "--no-index", ...records], { cwd: ROOT, encoding: "utf8" });
  expect(ignored.stdout.split("\n").filter(Boolean).sort()).toEqual(records.sort());
});

test("the demo access file stays committed, not ignored", () => {
  const tracked = execFileSync("git", ["ls-files", DEMO_ACCESS_FILE], { cwd: ROOT, encoding: "utf8" });
  expect(tracked.trim()).toBe(DEMO_ACCESS_FILE);
});

test("npm run keys -- --help says a push is in force within the reader's maximum age", async () => {
  const help = await runKeysCli(["--help"]);
  expect(help.code).toBe(0);
  expect(help.stdout.replace(/\s+/g, " ")).toContain(`Edge Config, in force within ${SECONDS} s without a redeploy`);
});

test.each([
  ["docs/operations.md", "**Vercel, in seconds (Edge Config)**"],
  ["docs/decisions.md", "## Revocation in seconds"],
])("%s gives the same figure for a push", (file, start) => {
  const figures = [...section(doc(file), start).matchAll(/within (\d+) s\b/g)].map((m) => Number(m[1]));
  expect(figures.length).toBeGreaterThan(0);
  expect(figures).toEqual(figures.map(() => SECONDS));
});
