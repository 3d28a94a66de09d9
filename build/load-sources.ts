/** Stage 1: find the source files and read their records lazily, file by file. */
import path from "node:path";
import fg from "fast-glob";
import type { BuildContext, SourceRecord } from "./context.js";
import type { Problem } from "./problems.js";
import { recordsOfFile, type SourceFile } from "./read-source-file.js";
import { RESOURCES, type Resource } from "./schemas.js";


/** Lists a resource's source files in a fixed order, so reports and output never depend on the disk. */
async function listSourceFiles(dataDir: string, resource: Resource): Promise<string[]> {
  const dir = path.join(dataDir, resource);
  const files = await fg(["**/*.json", "**/*.ndjson"], { cwd: dir, onlyFiles: true, followSymbolicLinks: false });
  return files.sort().map((file) => path.join(dir, file));
}

async function* readSources(files: SourceFile[], problems: Problem[]): AsyncGenerator<SourceRecord> {
  for (const file of files) yield* recordsOfFile(file, problems);
}

/** Lists the source files and sets up the lazy record stream: the input is never held whole. */
export async function loadSources(ctx: BuildContext): Promise<void> {
  const files: SourceFile[] = [];
  for (const resource of RESOURCES) {
    for (const file of await listSourceFiles(ctx.dataDir, resource)) files.push({ resource, file });
  }
  if (files.length === 0) {
    ctx.problems.push({
      code: "no_sources",
      file: ctx.dataDir,
      path: "",
      message: `has no source files: expected ${RESOURCES.map((r) => `${r}/**/*.json`).join(", ")} (or .ndjson)`,
    });
  }
  ctx.sourceFiles = files;
  ctx.sources = readSources(files, ctx.problems);
}
