/** Bench steps that need no server: generate data, build it, measure the snapshot. */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runMeasured } from "./processes.js";

export interface BuildFigures {
  showtimes: number;
  records: number;
  wallSeconds: number;
  recordsPerSecond: number;
  peakRssMb: number;
  snapshotMb: number;
  files: number;
  /** Seconds per build stage, as the build prints them. */
  stages: Record<string, number>;
  /** Bytes per data file. */
  fileBytes: Record<string, number>;
}

const TSX = ["--import", "tsx"];

/** Generates the dataset of one size once; later runs reuse it (generation is not what we measure). */
export async function ensureData(workDir: string, showtimes: number): Promise<string> {
  const dir = path.join(workDir, `data-${showtimes}`);
  const marker = path.join(dir, ".complete");
  if (existsSync(marker)) return dir;
  const result = await runMeasured("node", [
    ...TSX,
    "scripts/generate.ts",
    "--out",
    dir,
    "--showtimes",
    String(showtimes),
    "--seed",
    "1",
    "--force",
  ]);
  if (result.code !== 0) throw new Error(`generate failed: ${result.stderr.trim()}`);
  writeFileSync(marker, "");
  return dir;
}

/** Total bytes and file count under a folder. */
export function folderSize(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    bytes += statSync(path.join(entry.parentPath, entry.name)).size;
    files++;
  }
  return { bytes, files };
}

/** The figures of a snapshot built before (no build measured: wall time and memory are NaN). */
export function describeSnapshot(outDir: string, showtimes: number): BuildFigures {
  const counts = JSON.parse(readFileSync(path.join(outDir, "manifest.json"), "utf8")).counts as Record<string, number>;
  const { bytes, files } = folderSize(outDir);
  const fileBytes = Object.fromEntries(
    readdirSync(outDir).map((name) => [name, statSync(path.join(outDir, name)).size]),
  );
  return {
    showtimes,
    records: Object.values(counts).reduce((a, b) => a + b, 0),
    wallSeconds: Number.NaN,
    recordsPerSecond: Number.NaN,
    peakRssMb: Number.NaN,
    snapshotMb: bytes / 2 ** 20,
    files,
    stages: {},
    fileBytes,
  };
}

/** Seconds per stage, from the build's `stages: load 0.1 s, validate 3.2 s, …` line. */
export function stagesOf(stderr: string): Record<string, number> {
  const stageLine = stderr.split("\n").find((line) => line.startsWith("stages: ")) ?? "";
  return Object.fromEntries([...stageLine.matchAll(/(\w+) ([\d.]+) s/g)].map((m) => [m[1]!, Number(m[2])]));
}

/**
 * Builds a dataset with the real CLI in a child process, sampling its peak memory. A new history:
 * a snapshot an earlier run left in `outDir` would otherwise be carried, and the history stage timed.
 */
export async function measureBuild(dataDir: string, outDir: string, showtimes: number): Promise<BuildFigures> {
  const args = [...TSX, "build/index.ts", "--data", dataDir, "--out", outDir, "--new-history"];
  const result = await runMeasured("node", args, { echo: true });
  if (result.code !== 0) throw new Error(`build failed (${result.code}): ${result.stderr.slice(-2000)}`);
  const counts = JSON.parse(readFileSync(path.join(outDir, "manifest.json"), "utf8")).counts as Record<string, number>;
  const records = Object.values(counts).reduce((a, b) => a + b, 0);
  const { bytes, files } = folderSize(outDir);
  const stages = stagesOf(result.stderr);
  const fileBytes = Object.fromEntries(
    readdirSync(outDir).map((name) => [name, statSync(path.join(outDir, name)).size]),
  );
  return {
    showtimes,
    records,
    wallSeconds: result.wallMs / 1000,
    recordsPerSecond: records / (result.wallMs / 1000),
    peakRssMb: result.peakRss / 2 ** 20,
    snapshotMb: bytes / 2 ** 20,
    files,
    stages,
    fileBytes,
  };
}
