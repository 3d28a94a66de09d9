/** Stage 1: find the source files and read their records lazily, file by file. */
import { readFile } from "node:fs/promises";
import path from "node:path";
import fg from "fast-glob";
import type { BuildContext, SourceRecord } from "./context.js";
import type { Problem } from "./problems.js";
import { RESOURCES, type Resource } from "./schemas.js";

/** Lists a resource's source files in a fixed order, so reports and output never depend on the disk. */
async function listSourceFiles(dataDir: string, resource: Resource): Promise<string[]> {
  const dir = path.join(dataDir, resource);
  const files = await fg(["**/*.json", "**/*.ndjson"], { cwd: dir, onlyFiles: true, followSymbolicLinks: false });
  return files.sort().map((file) => path.join(dir, file));
}

/** Turns a JSON.parse message's character position into a 1-based line, when it gives one. */
function lineOfPosition(text: string, message: string): number | undefined {
  const match = /position (\d+)/.exec(message);
  if (!match) return undefined;
  return text.slice(0, Number(match[1])).split("\n").length;
}

function* parseJsonArray(resource: Resource, file: string, text: string, problems: Problem[]): Generator<SourceRecord> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    problems.push({ code: "invalid_json", file, line: lineOfPosition(text, message), path: "", message: `is not valid JSON (${message})` });
    return;
  }
  if (!Array.isArray(parsed)) {
    problems.push({ code: "not_an_array", file, path: "", message: "must hold a JSON array of records" });
    return;
  }
  for (let index = 0; index < parsed.length; index++) yield { resource, file, index, value: parsed[index] };
}

function* parseNdjson(resource: Resource, file: string, text: string, problems: Problem[]): Generator<SourceRecord> {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    try {
      yield { resource, file, line: i + 1, value: JSON.parse(line) };
    } catch (error) {
      problems.push({ code: "invalid_json", file, line: i + 1, path: "", message: `is not valid JSON (${(error as Error).message})` });
    }
  }
}

async function* readSources(dataDir: string, problems: Problem[]): AsyncGenerator<SourceRecord> {
  let fileCount = 0;
  for (const resource of RESOURCES) {
    for (const file of await listSourceFiles(dataDir, resource)) {
      fileCount++;
      let text: string;
      try {
        text = (await readFile(file, "utf8")).replace(/^\uFEFF/, "");
      } catch (error) {
        const reason = (error as NodeJS.ErrnoException).code ?? "read error";
        problems.push({ code: "unreadable_file", file, path: "", message: `could not be read (${reason})` });
        continue;
      }
      const parse = file.endsWith(".ndjson") ? parseNdjson : parseJsonArray;
      yield* parse(resource, file, text, problems);
    }
  }
  if (fileCount === 0) {
    problems.push({
      code: "no_sources",
      file: dataDir,
      path: "",
      message: `has no source files: expected ${RESOURCES.map((r) => `${r}/**/*.json`).join(", ")} (or .ndjson)`,
    });
  }
}

/** Sets up the lazy record stream; validation pulls from it so the input is never held whole. */
export async function loadSources(ctx: BuildContext): Promise<void> {
  ctx.sources = readSources(ctx.dataDir, ctx.problems);
}
