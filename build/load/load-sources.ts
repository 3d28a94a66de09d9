/** Stage 1: find the source files, in a fixed order; their records are read by validation. */
import path from "node:path";
import fg from "fast-glob";
import type { Problem } from "../report/problems.js";
import type { SourceFile } from "./read-source-file.js";
import { RESOURCES, type Resource } from "../validate/schemas.js";

export interface LoadedSources {
  dataDir: string;
  /** Every source file, in the fixed order reports and output follow. */
  files: SourceFile[];
}

/** Lists a resource's source files in a fixed order, so reports and output never depend on the disk. */
async function listSourceFiles(dataDir: string, resource: Resource): Promise<string[]> {
  const dir = path.join(dataDir, resource);
  const files = await fg(["**/*.json", "**/*.ndjson"], { cwd: dir, onlyFiles: true, followSymbolicLinks: false });
  return files.sort().map((file) => path.join(dir, file));
}

export async function loadSources(dataDir: string, problems: Problem[]): Promise<LoadedSources> {
  const files: SourceFile[] = [];
  for (const resource of RESOURCES) {
    for (const file of await listSourceFiles(dataDir, resource)) files.push({ resource, file });
  }
  if (files.length === 0) {
    problems.push({
      code: "no_sources",
      file: dataDir,
      path: "",
      message: `has no source files: expected ${RESOURCES.map((r) => `${r}/**/*.json`).join(", ")} (or .ndjson)`,
    });
  }
  return { dataDir, files };
}
