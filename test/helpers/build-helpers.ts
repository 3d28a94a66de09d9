/** Shared helpers for the build-side tests: valid records, temp folders, the CLI, tree hashes. */
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runEntry, runProcess, TSX_LOADER } from "./child-processes.js";
import type { BundledEntry } from "./entry-bundles.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const GOLDEN_FIXTURE = path.join(ROOT, "test/fixtures/golden");

const PROVENANCE = {
  observedAt: "2026-03-05T06:00:00Z",
  sourceUpdatedAt: "2026-03-01T09:30:00+01:00",
  provider: "test-feed",
  externalId: "ext-1",
};

/** A valid record of each resource with every optional field present. */
export function validRecords() {
  return {
    showtimes: {
      id: "st-1",
      filmId: "film-1",
      cinemaId: "cinema-1",
      startsAt: "2026-03-06T20:15:00+01:00",
      bookingUrl: "https://tickets.example.com/st-1",
      attributeIds: ["format-2d", "lang-en"],
      screenName: "Screen 1",
      provenance: { ...PROVENANCE },
    },
    cinemas: {
      id: "cinema-1",
      chainId: "chain-1",
      name: "Cinema One",
      location: {
        countryCode: "GB",
        locality: "London",
        postcode: "WC2H 7BY",
        address: "7 Leicester Place",
        latitude: 51.5113,
        longitude: -0.1301,
      },
      provenance: { ...PROVENANCE },
    },
    films: {
      id: "film-1",
      title: "Arrival",
      durationMinutes: 116,
      certification: "12A",
      posterUrl: "https://img.example.com/arrival.jpg",
      releaseDate: "2016-11-11",
      provenance: { ...PROVENANCE },
    },
    attributes: { id: "format-2d", kind: "format", name: "2D", description: "Digital 2D projection." },
  };
}

/** A fresh temp folder; pair with removeDir in afterEach/afterAll. */
export function makeTempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `cinema-${prefix}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Sets modes outright, whatever the umask: files 0644, folders 0755 (the folder itself too), as `vercel build`
 * leaves them.
 */
export function setPlainModes(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    chmodSync(path.join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644);
}

/** Writes files given as relative path → text, creating folders as needed. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [relative, text] of Object.entries(files)) {
    const full = path.join(root, relative);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

/** Records as NDJSON text, one per line. */
export function toNdjson(records: unknown[]): string {
  return `${records.map((r) => JSON.stringify(r)).join("\n")}\n`;
}

/** Every file under a folder as relative path → SHA-256, sorted by path. */
export function hashTree(root: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const relative of listFiles(root)) {
    hashes[relative] = createHash("sha256")
      .update(readFileSync(path.join(root, relative)))
      .digest("hex");
  }
  return hashes;
}

/** Relative paths of every file under a folder, with "/" separators, sorted. */
export function listFiles(root: string): string[] {
  const entries = readdirSync(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();
}

/** Reads a source file's records: a JSON array, or NDJSON lines. */
export function readRecords(file: string): Record<string, unknown>[] {
  const text = readFileSync(file, "utf8");
  if (file.endsWith(".json")) return JSON.parse(text) as Record<string, unknown>[];
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Every record of one resource in the golden fixture, in file order. */
export function fixtureRecords(resource: string): Record<string, unknown>[] {
  const dir = path.join(GOLDEN_FIXTURE, resource);
  return listFiles(dir).flatMap((file) => readRecords(path.join(dir, file)));
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the build CLI (`npm run build` without npm's noise), bundled (entry-bundles.ts), and collects its output. */
export function runBuildCli(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  return runScript("build/index.ts", args, options);
}

/** Runs one of the repository's entries, bundled, with this process's environment and `env`; collects its output. */
export function runScript(
  entry: BundledEntry,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  return runEntry(entry, args, { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env } });
}

/** Runs a TypeScript file under tsx, as an npm script does, and collects its output. */
export function runTsxScript(
  entry: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  return runProcess(process.execPath, ["--import", TSX_LOADER, entry, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
  });
}
