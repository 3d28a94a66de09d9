/**
 * The layers of the code show in its folders, and imports go one way only (architecture: "Snapshot
 * format 4"): within api/_core/format, primitives ← layout ← read ← query, and nothing there
 * imports the request core; the format's writing half, the build's encoders (build/encode/),
 * imports the format's primitives and layout only, never its readers; the request core and its
 * adapters import nothing from build/ or scripts/, and build/ nothing from scripts/.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { ROOT } from "./helpers/build-helpers.js";

const FORMAT = path.join(ROOT, "api/_core/format");
const LAYERS = ["primitives", "layout", "read", "query"] as const;
type Layer = (typeof LAYERS)[number];
/** The layers each layer may import (besides its own). */
const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  primitives: [],
  layout: ["primitives"],
  read: ["primitives", "layout"],
  query: ["primitives", "layout", "read"],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(full);
    return /\.(ts|mts)$/.test(entry.name) ? [full] : [];
  });
}

/** Every relative import of a file, resolved to a path under the repository. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*["'](\.\.?\/[^"']+)["']/g)].map((m) => m[1]!);
  return specifiers.map((s) => path.relative(ROOT, path.resolve(path.dirname(file), s)));
}

/** What the checks below would report for a set of files: "importer → imported" for each edge that breaks a rule. */
function violations(files: string[], isAllowed: (from: string, to: string) => boolean): string[] {
  return files.flatMap((file) => {
    const from = path.relative(ROOT, file);
    return importsOf(file)
      .filter((to) => !isAllowed(from, to))
      .map((to) => `${from} → ${to}`);
  });
}

const layerOf = (relative: string): Layer | undefined => {
  const match = /^api\/_core\/format\/([a-z]+)\//.exec(relative);
  return match && (LAYERS as readonly string[]).includes(match[1]!) ? (match[1] as Layer) : undefined;
};

describe("api/_core/format", () => {
  test("every file lives in one of the layers", () => {
    const stray = sourceFiles(FORMAT).filter((f) => layerOf(path.relative(ROOT, f)) === undefined);
    expect(stray).toEqual([]);
  });

  /** Whether a file of the format may import `to` (both relative to the repository). */
  const isAllowed = (from: string, to: string) => {
    const [own, target] = [layerOf(from)!, layerOf(to)];
    return target !== undefined && (target === own || MAY_IMPORT[own].includes(target));
  };

  test("imports go down the layers only, and never out of the format folder", () => {
    expect(violations(sourceFiles(FORMAT), isAllowed)).toEqual([]);
  });

  test.each([
    ["read/snapshot.ts", "primitives/bytes.ts", true],
    ["read/snapshot.ts", "layout/manifest.ts", true],
    ["query/showtime-selection.ts", "read/showtime-store.ts", true],
    ["read/showtime-store.ts", "../../../build/encode/encode-showtimes.ts", false],
    ["read/snapshot.ts", "query/cinema-selection.ts", false],
    ["primitives/bytes.ts", "layout/sections.ts", false],
    ["layout/manifest.ts", "read/freshness.ts", false],
    ["read/snapshot.ts", "../serve.ts", false],
  ] as const)("%s may import %s: %s", (from, to, allowed) => {
    const at = (p: string) => path.relative(ROOT, path.resolve(FORMAT, p));
    expect(isAllowed(at(from), at(to))).toBe(allowed);
  });
});

describe("build/encode, the format's writing half", () => {
  const ENCODE = path.join(ROOT, "build/encode");
  const isAllowed = (_from: string, to: string) =>
    to.startsWith("build/encode/") || /^api\/_core\/format\/(primitives|layout)\//.test(to);

  test("imports the format's primitives and layout only", () => {
    expect(violations(sourceFiles(ENCODE), isAllowed)).toEqual([]);
  });

  test.each([
    ["build/encode/encode-showtimes.ts", "api/_core/format/layout/sections.ts", true],
    ["build/encode/encode-showtimes.ts", "api/_core/format/read/showtime-block.ts", false],
    ["build/encode/encode-showtimes.ts", "build/validate/entries.ts", false],
  ] as const)("%s may import %s: %s", (from, to, allowed) => {
    expect(isAllowed(from, to)).toBe(allowed);
  });
});

describe("the rest of the tree", () => {
  test("the request core and its adapters import nothing from build/ or scripts/", () => {
    const files = [...sourceFiles(path.join(ROOT, "api")), path.join(ROOT, "middleware.ts")];
    expect(violations(files, (_from, to) => !/^(build|scripts)\//.test(to))).toEqual([]);
  });

  test("build/ imports nothing from scripts/", () => {
    expect(violations(sourceFiles(path.join(ROOT, "build")), (_from, to) => !to.startsWith("scripts/"))).toEqual([]);
  });

  test("the client imports nothing outside client/ (it is copied alone into apps)", () => {
    expect(violations(sourceFiles(path.join(ROOT, "client")), (_from, to) => to.startsWith("client/"))).toEqual([]);
  });
});

describe("the import graph", () => {
  /** Every cycle of imports among `files` (type-only imports too: a reader follows them alike), each once. */
  function cyclesOf(files: string[]): string[][] {
    const edges = new Map<string, string[]>();
    const known = new Set(files.map((f) => path.relative(ROOT, f)));
    const target = (to: string) =>
      [to, to.replace(/\.js$/, ".ts"), to.replace(/\.mjs$/, ".mjs")].find((t) => known.has(t));
    for (const file of files)
      edges.set(
        path.relative(ROOT, file),
        importsOf(file).flatMap((to) => target(to) ?? []),
      );
    const cycles: string[][] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (node: string) => {
      state.set(node, "open");
      stack.push(node);
      for (const next of edges.get(node) ?? []) {
        if (state.get(next) === "open") cycles.push(stack.slice(stack.indexOf(next)));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(node, "done");
    };
    for (const node of [...edges.keys()].sort()) if (!state.has(node)) visit(node);
    return cycles;
  }

  test("has no cycles: every folder can be read from the bottom up", () => {
    const files = ["api", "build", "scripts", "client"].flatMap((dir) => sourceFiles(path.join(ROOT, dir)));
    expect(cyclesOf([...files, path.join(ROOT, "middleware.ts")])).toEqual([]);
  });
});
