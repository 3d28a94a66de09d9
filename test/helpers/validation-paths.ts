/**
 * The two ways the build validates (build/validate/validate-records.ts): on its own thread, and on worker
 * threads as it does for inputs of 32 MiB and more. Tests run both on the same data and compare
 * what each gives: the validated entries field by field, and the snapshots' bytes.
 */
import path from "node:path";
import { expect } from "vitest";
import { PROVENANCE_FIELDS, SHOWTIME_FIELDS } from "../../api/_core/format/layout/showtime-fields.js";
import { Interner, type ValidRecords } from "../../build/validate/entries.js";
import { loadSources } from "../../build/load/load-sources.js";
import { createDiskWriter } from "../../build/write/output-writer.js";
import type { Problem } from "../../build/report/problems.js";
import { runBuild } from "../../build/run-build.js";
import { validateRecords } from "../../build/validate/validate-records.js";
import { hashTree } from "./build-helpers.js";

/** Workers the threaded runs use: two, so files are dealt out and taken back in order. */
export const THREADS = 2;

/** A showtime's values by name, in response order: the table's rows with provenance's flattened in. */
export function showtimeValueNames(): string[] {
  return SHOWTIME_FIELDS.flatMap((f) => (f.type === "provenance" ? PROVENANCE_FIELDS.map((p) => p.name) : [f.name]));
}

/** Validates `dataDir` on this thread and on THREADS workers; fails unless both are clean and the workers ran. */
export async function validateBothWays(dataDir: string): Promise<{ inline: ValidRecords; threaded: ValidRecords }> {
  const run = async (workers: number) => {
    const problems: Problem[] = [];
    const sources = await loadSources(dataDir, problems);
    let used = -1;
    const records = await validateRecords(sources, { workers, onWorkers: (n) => (used = n) }, problems, new Interner());
    expect(problems, `validation with ${workers} workers`).toEqual([]);
    expect(used, "validation ran on the workers asked for").toBe(workers);
    return records;
  };
  return { inline: await run(0), threaded: await run(THREADS) };
}

/**
 * Expects the same showtime entries from both ways, field by field: each holds exactly the
 * table's values and its location (one object shape), and each value is the source record's.
 */
export function expectSameShowtimes(
  inline: ValidRecords,
  threaded: ValidRecords,
  sources: ReadonlyArray<Record<string, unknown>>,
): void {
  const names = showtimeValueNames();
  const byId = new Map(sources.map((s) => [s.id, s]));
  expect(threaded.showtimes.length).toBe(inline.showtimes.length);
  expect(inline.showtimes.length).toBe(sources.length);
  inline.showtimes.forEach((entry, i) => {
    const other = threaded.showtimes[i]!;
    expect(Object.keys(entry)).toEqual([...names, "file", "line", "index"]);
    expect(Object.keys(other)).toEqual(Object.keys(entry));
    const source = byId.get(entry.id)!;
    const provenance = source.provenance as Record<string, unknown>;
    for (const name of names) {
      const given = name in source ? source[name] : provenance[name];
      const held = (entry as unknown as Record<string, unknown>)[name];
      // Date-times are held with their instant key; the text is the source's.
      const text =
        held !== null && typeof held === "object" && "key" in held ? (held as unknown as { text: string }).text : held;
      expect(text, `${entry.id} ${name} on this thread`).toEqual(given);
      expect((other as unknown as Record<string, unknown>)[name], `${entry.id} ${name} from a worker`).toEqual(held);
    }
    for (const at of ["file", "line", "index"] as const) expect(other[at], at).toBe(entry[at]);
  });
}

/** Builds `dataDir` both ways into `outRoot`; expects byte-identical snapshots and returns the inline one. */
export async function buildBothWays(dataDir: string, outRoot: string): Promise<string> {
  const build = async (workers: number) => {
    const out = path.join(outRoot, `snapshot-${workers}`);
    const result = await runBuild({
      dataDir,
      output: createDiskWriter(out),
      validateWorkers: workers,
      gzipLevel: 1,
      gzipWorkers: 0,
      layout: { targetBytes: 200, restartInterval: 3, deflate: true },
    });
    if (!result.ok) throw new Error(`invalid data:\n${JSON.stringify(result.problems.slice(0, 5), null, 2)}`);
    return out;
  };
  const inline = await build(0);
  const threaded = await build(THREADS);
  expect(hashTree(threaded)).toEqual(hashTree(inline));
  return inline;
}
