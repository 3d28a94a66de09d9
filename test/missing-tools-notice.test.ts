/**
 * `npm test` on a machine without chromium or redis-server: the tests that need them are skipped,
 * and the run ends with one line giving vitest's own count of skipped tests, naming what is
 * missing, how many tests it cost and the command that installs it; with both installed, no such
 * line. Real vitest runs of the real test files (and of a fixture that also skips a test for a
 * reason of its own), with PATH emptied of the two programs.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { missingToolsLine } from "./reporters/missing-tools.js";
import { makeTempDir, removeDir, ROOT } from "./helpers/build-helpers.js";
import { startProcess } from "./helpers/child-processes.js";
import { whenInstalled } from "./helpers/system-tools.js";

const VITEST = path.join(ROOT, "node_modules/vitest/vitest.mjs");
const NOTICE = new RegExp(
  String.raw`^skipped (\d+) tests: chromium is not installed \((\d+) tests\), ` +
    String.raw`redis-server is not installed \((\d+) tests\); ` +
    "install with: apt-get install -y chromium redis-server$",
);

/** This run's environment without vitest's own markers (the child is a run of its own), PATH as given. */
function childEnv(PATH: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST")));
  return { ...env, PATH, NO_COLOR: "1", FORCE_COLOR: "0" };
}

/** `vitest run ARGS` as npm test runs it (the repository's config unless ARGS name one), with its whole output. */
function runVitest(args: string[], PATH: string): Promise<{ code: number | null; lines: string[] }> {
  const child = startProcess(process.execPath, [VITEST, "run", ...args], {
    cwd: ROOT,
    env: childEnv(PATH),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  return new Promise((resolve) =>
    child.once("close", (code) => resolve({ code, lines: output.split("\n").filter((l) => l.trim() !== "") })),
  );
}

describe("a run without chromium and redis-server", () => {
  let emptyBin: string;
  beforeAll(() => {
    emptyBin = makeTempDir("no-tools");
  });
  afterAll(() => removeDir(emptyBin));

  test("ends with one line naming both, the tests skipped for each and the install command", async () => {
    const { code, lines } = await runVitest(["test/docs-page.test.ts", "test/redis-rate-limit.test.ts"], emptyBin);
    expect(code, lines.join("\n")).toBe(0);
    const last = lines.at(-1)!;
    const [, total, chromium, redis] = NOTICE.exec(last) ?? [];
    expect(last).toMatch(NOTICE);
    // Nothing else is skipped in these two files: every skip is for want of one of the programs.
    expect(Number(total)).toBe(Number(chromium) + Number(redis));
    // The count is vitest's own: the summary's skipped tests are exactly those.
    const summary = lines.find((line) => /^\s*Tests\s/.test(line))!;
    expect(summary).toContain(`${total} skipped`);
    expect(lines.filter((line) => line.includes("apt-get install"))).toEqual([last]);
  });
});

describe("a run that also skips tests for other reasons", () => {
  let emptyBin: string;
  beforeAll(() => {
    emptyBin = makeTempDir("no-tools");
  });
  afterAll(() => removeDir(emptyBin));

  test("gives vitest's own count of skipped tests, and how many of them lack each program", async () => {
    const config = "test/fixtures/missing-tools/vitest.config.ts";
    const { code, lines } = await runVitest(["--config", config], emptyBin);
    expect(code, lines.join("\n")).toBe(0);
    expect(lines.find((line) => /^\s*Tests\s/.test(line))).toMatch(/\b4 skipped\b/);
    expect(lines.at(-1)).toBe(
      "skipped 4 tests: chromium is not installed (2 tests), the fixture's own reason (1 test), " +
        "1 test with no reason given; install with: apt-get install -y chromium",
    );
  });
});

// Counted with the tests skipped for want of redis-server when it is missing, as they are.
describe("a run with both installed", whenInstalled("redis-server"), () => {
  test("prints no such line: nothing was skipped", async () => {
    const { code, lines } = await runVitest(["test/redis-rate-limit.test.ts"], process.env.PATH ?? "");
    expect(code, lines.join("\n")).toBe(0);
    expect(lines.find((line) => /^\s*Tests\s/.test(line))).not.toContain("skipped");
    expect(lines.filter((line) => line.includes("install with"))).toEqual([]);
  });
});

describe("the line itself", () => {
  test.each([
    [0, new Map(), undefined],
    [
      12,
      new Map([["chromium", 12]]),
      "skipped 12 tests: chromium is not installed (12 tests); install with: apt-get install -y chromium",
    ],
    [
      15,
      new Map([
        ["redis-server", 3],
        ["chromium", 12],
      ]),
      "skipped 15 tests: redis-server is not installed (3 tests), chromium is not installed (12 tests); " +
        "install with: apt-get install -y redis-server chromium",
    ],
    [1, new Map(), "skipped 1 test: 1 test with no reason given"],
  ] as const)("%i skipped, %o → %j", (total, byTool, line) => {
    expect(missingToolsLine({ total, byTool: new Map(byTool) })).toBe(line);
  });

  test("names each reason a suite gave, with its count, beside the missing programs and the rest", () => {
    const byReason = new Map([["run as another user: there is no user nobody", 7]]);
    expect(missingToolsLine({ total: 7, byTool: new Map(), byReason })).toBe(
      "skipped 7 tests: run as another user: there is no user nobody (7 tests)",
    );
    expect(missingToolsLine({ total: 11, byTool: new Map([["chromium", 3]]), byReason })).toBe(
      "skipped 11 tests: chromium is not installed (3 tests), run as another user: there is no user nobody " +
        "(7 tests), 1 test with no reason given; install with: apt-get install -y chromium",
    );
  });
});
