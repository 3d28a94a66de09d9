/**
 * The bundles' modes after `vercel build` (scripts/vercel/vercel-build.ts; decision: gateway secret):
 * under an owner-only umask the CLI leaves its files 0600, which the output's modes check refuses;
 * verify:vercel's build and a release's make every file of the function and the middleware 0644
 * (0755 if executable) and every folder 0755, whatever the umask, changing nothing outside the
 * output. With the fake `vercel` (helpers/fake-vercel.mjs), which writes its files as the real CLI
 * does: with the modes the umask leaves.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, linkSync, lstatSync, mkdirSync, readdirSync, statSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { vercelBuild } from "../scripts/release/vercel-steps.js";
import { checkVercelOutput, FUNCTION_DIR, MIDDLEWARE_DIR } from "../scripts/vercel/output.js";
import { makePiecesReadable, runVercelBuild } from "../scripts/vercel/vercel-build.js";
import { makeTempDir, removeDir, ROOT, setPlainModes, writeFiles } from "./helpers/build-helpers.js";

const FAKE_VERCEL = path.join(ROOT, "test/helpers/fake-vercel.mjs");
const MODES_CHECK = "every file the function and the middleware read is readable by other users";
/** The owner-only umask of a hardened build machine. */
const OWNER_ONLY = 0o077;

let root: string;
beforeAll(() => {
  root = makeTempDir("vercel-build-modes");
});
afterAll(() => removeDir(root));

let projects = 0;
/**
 * A project as vercel.json's build command leaves it (snapshot/ and the secret 0644 in 0755 folders,
 * whatever the umask), with the fake CLI where verify:vercel runs it from, and on a bin folder.
 */
function makeProject(): { project: string; bin: string } {
  const project = path.join(root, `project-${++projects}`);
  writeFiles(project, {
    "vercel.json": JSON.stringify({ buildCommand: "true" }),
    "snapshot/manifest.json": JSON.stringify({ snapshotId: "0".repeat(32) }),
    "snapshot/bodies.blocks": "bodies",
    "generated/gateway-secret": `${"5".repeat(64)}\n`,
    "public/index.html": "<!doctype html>",
  });
  setPlainModes(project);
  const bin = path.join(project, "node_modules/.bin");
  mkdirSync(bin, { recursive: true });
  copyFileSync(FAKE_VERCEL, path.join(bin, "vercel"));
  chmodSync(path.join(bin, "vercel"), 0o755);
  return { project, bin };
}

/** Runs `start` with the process's umask `mask` (children take it when they start), restored after. */
async function underUmask<T>(mask: number, start: () => T | Promise<T>): Promise<T> {
  const before = process.umask(mask);
  try {
    return await start();
  } finally {
    process.umask(before);
  }
}

const output = (project: string) => path.join(project, ".vercel/output");
const modeOf = (file: string) => (lstatSync(file).mode & 0o777).toString(8);

/** Every file and folder of both pieces with its mode ("functions/api/v1.func/api 755"). */
function pieceModes(project: string): string[] {
  const out = output(project);
  return [FUNCTION_DIR, MIDDLEWARE_DIR].flatMap((piece) => [
    `${piece} ${modeOf(path.join(out, piece))}`,
    ...readdirSync(path.join(out, piece), { recursive: true, withFileTypes: true }).map((entry) => {
      const full = path.join(entry.parentPath, entry.name);
      return `${path.relative(out, full).split(path.sep).join("/")} ${modeOf(full)}`;
    }),
  ]);
}

/** The output's modes check, as verify:vercel and a release run it. */
function modesCheck(project: string) {
  const { checks } = checkVercelOutput(
    output(project),
    project,
    path.join(project, "public"),
    path.join(project, "snapshot"),
  );
  return checks.find((check) => check.name.startsWith(MODES_CHECK))!;
}

/** Whether every file and folder of both pieces has its plain mode. */
const isPlain = (line: string) => / (644|755)$/.test(line);

describe("vercel build under an owner-only umask", () => {
  test("leaves the bundles owner-only, the secret included, and the output's modes check refuses them", async () => {
    const { project, bin } = makeProject();
    const built = await underUmask(OWNER_ONLY, () =>
      spawnSync(path.join(bin, "vercel"), ["build"], { cwd: project, encoding: "utf8" }),
    );
    expect(built.status, built.stderr).toBe(0);
    const modes = pieceModes(project);
    expect(modes).toContain(`${FUNCTION_DIR}/.vc-config.json 600`);
    expect(modes).toContain(`${MIDDLEWARE_DIR} 700`);
    expect(modes).toContain(`${MIDDLEWARE_DIR}/generated/gateway-secret 600`);
    const check = modesCheck(project);
    expect(check.ok).toBe(false);
    expect(check.detail).toContain(`${FUNCTION_DIR} 700`);

    // What verify:vercel and a release do next: every file 0644, every folder 0755, and the check passes.
    const changed = makePiecesReadable(output(project));
    expect(changed).toContain(`${FUNCTION_DIR}/.vc-config.json`);
    expect(pieceModes(project).filter((line) => !isPlain(line))).toEqual([]);
    expect(modesCheck(project).ok).toBe(true);
    expect(makePiecesReadable(output(project))).toEqual([]);
  });

  test("verify:vercel's build: every file of both bundles 0644, every folder 0755, the check passes", async () => {
    const { project } = makeProject();
    const built = await underUmask(OWNER_ONLY, () => runVercelBuild(project));
    expect(built).toMatchObject({ ok: true });
    expect(built.ok && built.opened.length).toBeGreaterThan(0);
    expect(pieceModes(project).filter((line) => !isPlain(line))).toEqual([]);
    expect(pieceModes(project)).toContain(`${MIDDLEWARE_DIR}/generated/gateway-secret 644`);
    expect(modesCheck(project).ok).toBe(true);
  });

  test("a release's build: the same", async () => {
    const { project, bin } = makeProject();
    const path_ = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${path_}`;
    try {
      const opened = await underUmask(OWNER_ONLY, () => vercelBuild(project, "preview", "0".repeat(32)));
      expect(opened.length).toBeGreaterThan(0);
    } finally {
      process.env.PATH = path_;
    }
    expect(pieceModes(project).filter((line) => !isPlain(line))).toEqual([]);
    expect(pieceModes(project)).toContain(`${FUNCTION_DIR}/generated/gateway-secret 644`);
    expect(modesCheck(project).ok).toBe(true);
  });
});

describe("makePiecesReadable", () => {
  const out = () => path.join(root, "output");
  const fn = (relative = "") => path.join(out(), FUNCTION_DIR, relative);
  const middleware = (relative = "") => path.join(out(), MIDDLEWARE_DIR, relative);
  const outside = (relative: string) => path.join(root, "outside", relative);
  let changed: string[];

  beforeAll(() => {
    writeFiles(fn(), { "a.js": "a", "bin/run": "#!/bin/sh", "deep/er/b.json": "{}", "open.js": "o", "ok.js": "k" });
    writeFiles(middleware(), { "middleware.js": "m" });
    writeFiles(out(), { "static/index.html": "<!doctype html>", "config.json": "{}" });
    writeFiles(outside(""), { "shared.js": "s", "target.js": "t" });
    setPlainModes(out());
    linkSync(outside("shared.js"), fn("shared.js"));
    symlinkSync(outside("target.js"), fn("link.js"));
    const modes: Array<[string, number]> = [
      [fn("a.js"), 0o600],
      [fn("bin/run"), 0o700],
      [fn("bin"), 0o700],
      [fn("deep/er/b.json"), 0o640],
      [fn("deep/er"), 0o711],
      [fn("open.js"), 0o666],
      [fn(), 0o700],
      [middleware("middleware.js"), 0o600],
      [path.join(out(), "static/index.html"), 0o600],
      [path.join(out(), "config.json"), 0o600],
      [outside("shared.js"), 0o600],
      [outside("target.js"), 0o600],
    ];
    for (const [file, mode] of modes) chmodSync(file, mode);
    changed = makePiecesReadable(out());
  });

  test.each<[string, () => string, string]>([
    ["a file only its owner reads: 0644", () => fn("a.js"), "644"],
    ["an executable only its owner runs: 0755", () => fn("bin/run"), "755"],
    ["a folder only its owner enters: 0755", () => fn("bin"), "755"],
    ["a file its group reads, others not: 0644", () => fn("deep/er/b.json"), "644"],
    ["a folder others may enter but not list: 0755", () => fn("deep/er"), "755"],
    ["a file anyone may write: 0644", () => fn("open.js"), "644"],
    ["the function's folder itself: 0755", () => fn(), "755"],
    ["the middleware's files: 0644", () => middleware("middleware.js"), "644"],
    ["a hard link's name in the bundle: 0644", () => fn("shared.js"), "644"],
    ["its other name outside the output: unchanged", () => outside("shared.js"), "600"],
    ["a symbolic link's target outside the output: unchanged", () => outside("target.js"), "600"],
    ["a static file (no function reads it): unchanged", () => path.join(out(), "static/index.html"), "600"],
    ["the output's config.json: unchanged", () => path.join(out(), "config.json"), "600"],
  ])("%s", (_what, file, mode) => {
    expect(modeOf(file())).toBe(mode);
  });

  test("returns what it changed, relative to the output; the hard link became a file of its own", () => {
    const fnDir = FUNCTION_DIR;
    expect(changed).toEqual(
      [fnDir, `${fnDir}/a.js`, `${fnDir}/bin`, `${fnDir}/bin/run`, `${fnDir}/deep/er`, `${fnDir}/deep/er/b.json`]
        .concat([`${fnDir}/open.js`, `${fnDir}/shared.js`, `${MIDDLEWARE_DIR}/middleware.js`])
        .sort(),
    );
    expect(statSync(fn("shared.js")).ino).not.toBe(statSync(outside("shared.js")).ino);
    expect(makePiecesReadable(out())).toEqual([]);
  });
});
