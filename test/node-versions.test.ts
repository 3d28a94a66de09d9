/**
 * One answer to "which Node.js?" (decision: Node.js versions): package.json's engines, the
 * Vercel project settings and the README agree, and the pinned Vercel CLI's own selection reads
 * engines as Node.js 24, without a warning that it would jump to a future major by itself.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterEach, expect, test, vi } from "vitest";
import { LOCAL_PROJECT } from "../scripts/vercel/project.js";
import { ROOT } from "./helpers/build-helpers.js";

/** The @vercel/build-utils that `vercel build` itself loads (the CLI carries its own copy). */
const buildUtils = createRequire(createRequire(import.meta.url).resolve("vercel/package.json"))(
  "@vercel/build-utils",
) as {
  getNodeVersion(
    dir: string,
    fallback?: string,
    config?: object,
    meta?: object,
    available?: number[],
  ): Promise<{
    major: number;
    range: string;
  }>;
};

const json = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), "utf8"));
const ENGINES: string = json("package.json").engines.node;
/** The settings an unlinked `vercel build` uses (verify:vercel): nothing committed names a project. */
const PROJECT_NODE: string = LOCAL_PROJECT.settings.nodeVersion;
/** The majors Vercel offers today, newest first. */
const ON_VERCEL = [24, 22, 20];

afterEach(() => vi.restoreAllMocks());

test("Vercel's selection reads engines as Node.js 24.x, the project setting, and warns of nothing", async () => {
  const warnings: string[] = [];
  vi.spyOn(console, "warn").mockImplementation((message: string) => void warnings.push(message));
  const selected = await buildUtils.getNodeVersion(ROOT, PROJECT_NODE, {}, {}, ON_VERCEL);
  expect([selected.range, PROJECT_NODE]).toEqual(["24.x", "24.x"]);
  expect(warnings).toEqual([]);
});

// Not 20: Vercel no longer deploys it (its discontinuation depends on the day, which tests never do).
test.each([
  [22, "22.x"],
  [24, "24.x"],
])("engines admit Node.js %i on Vercel: offering only it selects %s", async (major, range) => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
  const selected = await buildUtils.getNodeVersion(ROOT, undefined, {}, {}, [major]);
  expect(selected.range).toBe(range);
});

test("engines admit the Node.js running this suite (CI runs it on 20 and 24)", () => {
  const major = Number(process.versions.node.split(".")[0]);
  expect(ENGINES.split("||").map((part) => Number(/\^(\d+)\./.exec(part)?.[1]))).toContain(major);
});

test("the README states the engines range and the deployment's Node.js", () => {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  expect(readme).toContain(`\`${ENGINES}\``);
  expect(readme).toContain("Vercel runs the function on Node.js 24");
});

test("the operations guide's install step names the lines engines admits, from their floors", () => {
  const guide = readFileSync(path.join(ROOT, "docs/operations.md"), "utf8");
  const named = /^1\. \*\*Install\*\*: Node\.js ([^(\n]*)\(/m.exec(guide)?.[1] ?? "";
  // ^20.19.0 is named 20.19, ^24.0.0 is named 24.
  const floors = ENGINES.split("||").map((part) => /\^(\d+)\.(\d+)\./.exec(part)!.slice(1));
  expect(named.match(/\d+(\.\d+)?/g)).toEqual(
    floors.map(([major, minor]) => (minor === "0" ? major : `${major}.${minor}`)),
  );
});

test("the README's Node.js line names exactly the majors engines admits", () => {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const named = /^\*\*Node\.js\*\*: ([^(]*)\(/m.exec(readme)?.[1] ?? "";
  const admitted = ENGINES.split("||").map((part) => /\^(\d+)\./.exec(part)?.[1]);
  expect(named.match(/\b\d+\b/g)).toEqual(admitted);
});
