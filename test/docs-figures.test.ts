/**
 * Figures and names the docs state that the code defines, read from the docs and compared with
 * the code: the snapshot format, the build's stages, the snapshot's files, the shared rate
 * limiter's deadlines, the changes feed's limits and the history kept, the MCP endpoint's bounds,
 * usage's outcomes, writes and what it keeps.
 * A doc that falls behind the code fails here instead of misleading its first reader.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { RATE_LIMIT_STORES } from "../api/_adapters/rate-limit-stores.js";
import { SNAPSHOT_FORMAT } from "../api/_core/format/layout/manifest.js";
import { DATA_FILES, MANIFEST_FILE } from "../api/_core/format/primitives/files.js";
import { DEFAULT_CHANGES_LIMIT, MAX_CHANGES_LIMIT } from "../api/_core/endpoints/parameters/changes.js";
import { DEFAULT_KEEP, STAGES } from "../build/run-build.js";
import { MAX_TEXT_LENGTH } from "../api/_core/mcp/call-tool.js";
import { MAX_BODY_BYTES } from "../api/_core/mcp/mcp-endpoint.js";
import { TOOL_DEFAULT_LIMIT, TOOL_MAX_LIMIT } from "../api/_core/mcp/tool-arguments.js";
import { TOOLS } from "../api/_core/mcp/tools.js";
import { BATCH_ID_SECONDS, KEEP_USAGE_SECONDS } from "../api/_adapters/usage-layout.js";
import { OUTCOMES } from "../api/_core/usage/outcome.js";
import { STOP_WAIT_MS } from "../scripts/server/request-log.js";
import { USAGE_WRITE_MS } from "../scripts/server/usage-counting.js";
import { ROOT } from "./helpers/build-helpers.js";

const doc = (name: string) => readFileSync(path.join(ROOT, name), "utf8");
const numbers = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((match) => Number(match[1]));

test.each([
  // Every format the README names is the current one: it tells no history.
  ["README.md", /format (\d+)/g],
  [
    "docs/architecture.md",
    /on disk \(format (\d+)\)|^## Snapshot format (\d+)|format \((\d+)\)|this server reads format (\d+)/gm,
  ],
  ["docs/decisions.md", /keep working on format (\d+)/g],
])("%s names the snapshot format the manifest has", (file, pattern) => {
  const named = [...doc(file).matchAll(pattern)].map((match) => Number(match.slice(1).find(Boolean)));
  expect(named.length).toBeGreaterThan(0);
  expect(named).toEqual(named.map(() => SNAPSHOT_FORMAT));
});

test.each([
  ["README.md", /^data\/ (.*) snapshot\/$/m, /─▶ (\w+)/g],
  ["docs/architecture.md", /^data\/ (.*) snapshot\/$/m, /(?:──|▶ )(\w+)(?= ?─)/g],
])("%s draws the build's stages in order", (file, line, stage) => {
  const drawn = line.exec(doc(file))?.[1] ?? "";
  expect([...`${drawn} ─`.matchAll(stage)].map((match) => match[1])).toEqual([...STAGES]);
});

test("the README's drawing of a snapshot names each of its files", () => {
  const files = [...doc("README.md").matchAll(/[├└] (\S+\.\w+) /g)].map((match) => match[1]);
  expect(files.sort()).toEqual([MANIFEST_FILE, ...DATA_FILES].sort());
});

test("the shared rate limiter's deadlines are the store table's, store by store", () => {
  const deadlines = RATE_LIMIT_STORES.map((store) => store.timeoutMs);
  const operations = doc("docs/operations.md");
  expect(numbers(operations, /(\d+) ms deadline/g)).toEqual(deadlines);
  expect(numbers(operations, /unavailable \(no answer within (\d+) ms\)/g)).toEqual([deadlines[0]]);
  const named = RATE_LIMIT_STORES.map((store) => `(\\d+) ms for\\s+${store.name}`).join(",\\s+");
  const decision = new RegExp(`\\(${named}\\)`).exec(doc("docs/decisions.md"));
  expect(decision?.slice(1).map(Number)).toEqual(deadlines);
});

test.each([
  ["README.md", /`limit` \((\d+)\.\.(\d+), default (\d+)\)/],
  ["docs/decisions.md", /`limit` is (\d+)\.\.(\d+) \(default (\d+)\)/],
])("%s gives the changes feed's limits", (file, pattern) => {
  expect(pattern.exec(doc(file))?.slice(1).map(Number)).toEqual([1, MAX_CHANGES_LIMIT, DEFAULT_CHANGES_LIMIT]);
});

test.each([
  ["docs/decisions.md", /at least the last (\d+) generations and at least (\d+) days/],
  ["docs/operations.md", /keeps at least (\d+) generations and (\d+) days/],
  ["public/index.html", /at least the last\s+(\d+) updates and (\d+) days/],
])("%s gives the history kept", (file, pattern) => {
  expect(pattern.exec(doc(file))?.slice(1).map(Number)).toEqual([DEFAULT_KEEP.generations, DEFAULT_KEEP.days]);
});

test("the MCP endpoint's bounds and tools are the code's (decision: MCP)", () => {
  const decisions = doc("docs/decisions.md");
  const operations = doc("docs/operations.md");
  expect(/`limit` is 1\.\.(\d+), default (\d+)/.exec(decisions)?.slice(1).map(Number)).toEqual([
    TOOL_MAX_LIMIT,
    TOOL_DEFAULT_LIMIT,
  ]);
  expect(/`limit` 1\.\.(\d+), default (\d+)/.exec(operations)?.slice(1).map(Number)).toEqual([
    TOOL_MAX_LIMIT,
    TOOL_DEFAULT_LIMIT,
  ]);
  for (const text of [decisions, operations])
    expect(numbers(text, /(\d+) KiB/g)).toEqual(numbers(text, /(\d+) KiB/g).map(() => MAX_BODY_BYTES / 1024));
  expect(/a text cut at ([\d,]+) characters/.exec(decisions)?.[1]?.replace(/,/g, "")).toBe(String(MAX_TEXT_LENGTH));
  // Every tool is named in the decision's table, in the README and the operations guide.
  for (const text of [decisions, operations, doc("README.md")])
    for (const { name } of TOOLS) expect(text, name).toContain(`\`${name}\``);
});

test("usage's outcomes, its writes and what it keeps are as the docs say (decision: usage)", () => {
  const decision = /^## Usage\n([\s\S]*?)\n## /m.exec(doc("docs/decisions.md"))?.[1] ?? "";
  const listed = /\*\*Outcome\*\*: (.+?);\s+and `cdn`/s.exec(decision)?.[1] ?? "";
  expect([...[...listed.matchAll(/`([^`]+)`/g)].map((match) => match[1]), "cdn"]).toEqual([...OUTCOMES]);
  expect(numbers(decision, /\*\*Kept\*\* (\d+) days/g)).toEqual([KEEP_USAGE_SECONDS / 86_400]);
  expect(numbers(doc("docs/operations.md"), /keep usage (\d+) days/g)).toEqual([KEEP_USAGE_SECONDS / 86_400]);
  expect([decision.includes("(ids kept a week)"), BATCH_ID_SECONDS]).toEqual([true, 7 * 86_400]);
  const writes = /local server's every second and when it is stopped \(SIGINT and\s+SIGTERM wait at most (\d+) s/;
  expect([Number(writes.exec(decision)?.[1]) * 1000, USAGE_WRITE_MS]).toEqual([STOP_WAIT_MS, 1_000]);
});
