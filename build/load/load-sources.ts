/** Stage 1: find the source files, in a fixed order (their records are read by validation), and markets.json. */
import type { Problem } from "../report/problems.js";
import { loadMarketsSource, type MarketsSource } from "./markets-source.js";
import type { SourceFile } from "./read-source-file.js";
import { listDataFolder } from "./source-files.js";
import { RESOURCES } from "../validate/schemas.js";

export interface LoadedSources {
  dataDir: string;
  /** Every source file, in the fixed order reports and output follow. */
  files: SourceFile[];
  /** What the data folder holds that the build does not read, relative to it (source-files.ts). */
  unread: string[];
  /** The data folder's markets.json, parsed; undefined without one (decision: markets). */
  markets?: MarketsSource;
}

export async function loadSources(dataDir: string, problems: Problem[]): Promise<LoadedSources> {
  const { sources, unread } = await listDataFolder(dataDir, problems);
  const files: SourceFile[] = RESOURCES.flatMap((resource) => sources[resource].map((file) => ({ resource, file })));
  if (files.length === 0) {
    const expected = RESOURCES.map((r) => `${r}/**/*.json`).join(", ");
    problems.push({
      code: "no_sources",
      file: dataDir,
      path: "",
      message: `has no source files: expected ${expected} (or .ndjson, .jsonl)`,
    });
  }
  return { dataDir, files, unread, markets: loadMarketsSource(dataDir, problems) };
}
