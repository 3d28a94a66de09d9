/** Writes a copy of a data folder with the demo made current (shift-dates.ts): same files, same formats. */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import { type DemoRecords, shiftDemo } from "./shift-dates.js";

type Json = Record<string, unknown>;

interface SourceFile {
  relative: string;
  ndjson: boolean;
  records: Json[];
}

function readSource(dataDir: string, relative: string): SourceFile {
  const text = readFileSync(path.join(dataDir, relative), "utf8");
  // One record per line, as the build reads them: .ndjson, or .jsonl, its other common name.
  const ndjson = relative.endsWith(".ndjson") || relative.endsWith(".jsonl");
  const records = ndjson
    ? text
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as Json)
    : (JSON.parse(text) as Json[]);
  return { relative, ndjson, records };
}

/** Copies `dataDir`'s source files to `outDir`, the demo's first day moved to `today`. */
export function writeCurrentDemo(dataDir: string, outDir: string, today: string): void {
  const relatives = fg.sync("{cinemas,films,showtimes,attributes}/**/*.{json,ndjson,jsonl}", { cwd: dataDir }).sort();
  const files = relatives.map((relative) => readSource(dataDir, relative));
  const of = (resource: string) => files.filter((f) => f.relative.startsWith(`${resource}/`));
  const all = (resource: string) => of(resource).flatMap((f) => f.records);
  const shifted: DemoRecords = shiftDemo(
    { cinemas: all("cinemas"), films: all("films"), showtimes: all("showtimes") },
    today,
  );
  for (const resource of ["cinemas", "films", "showtimes"] as const) {
    let next = 0;
    for (const file of of(resource)) file.records = file.records.map(() => shifted[resource][next++]!);
  }
  for (const file of files) {
    const target = path.join(outDir, file.relative);
    mkdirSync(path.dirname(target), { recursive: true });
    const text = file.ndjson
      ? `${file.records.map((r) => JSON.stringify(r)).join("\n")}\n`
      : `${JSON.stringify(file.records, null, 2)}\n`;
    writeFileSync(target, text);
  }
}
