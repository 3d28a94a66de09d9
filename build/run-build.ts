/** The build: an ordered list of stages, each its own module; no stage knows the next. */
import type { BuildContext, OutputWriter } from "./context.js";
import { indexViews } from "./index-views.js";
import { linkRecords } from "./link-records.js";
import { loadSources } from "./load-sources.js";
import type { Problem } from "./problems.js";
import { RecordArena } from "./record-arena.js";
import { renderSnapshot } from "./render-snapshot.js";
import { validateRecords } from "./validate-records.js";
import { writeSnapshot } from "./write-snapshot.js";

interface Stage {
  name: string;
  run: (ctx: BuildContext) => Promise<void>;
  /** Stages that produce output refuse to run once any problem has been found. */
  needsValidInput?: boolean;
}

export const STAGES: readonly Stage[] = [
  { name: "load", run: loadSources },
  { name: "validate", run: validateRecords },
  { name: "link", run: linkRecords },
  { name: "index", run: indexViews, needsValidInput: true },
  { name: "render", run: renderSnapshot, needsValidInput: true },
  { name: "write", run: writeSnapshot, needsValidInput: true },
];

export interface BuildOptions {
  dataDir: string;
  output: OutputWriter;
  gzipLevel?: number;
  gzipWorkers?: number;
  validateWorkers?: number;
  onProgress?: BuildContext["onProgress"];
  onStage?: (name: string) => void;
}

export type BuildResult = { ok: true; ctx: BuildContext } | { ok: false; problems: Problem[] };

/** Runs every stage in order; returns all problems found, or the finished context. */
export async function runBuild(options: BuildOptions): Promise<BuildResult> {
  const ctx: BuildContext = {
    dataDir: options.dataDir,
    gzipLevel: options.gzipLevel ?? 6,
    gzipWorkers: options.gzipWorkers,
    validateWorkers: options.validateWorkers,
    output: options.output,
    problems: [],
    entries: { cinemas: [], films: [], showtimes: [], attributes: [] },
    arena: new RecordArena(),
    views: [],
    onProgress: options.onProgress,
  };
  try {
    for (const stage of STAGES) {
      if (stage.needsValidInput && ctx.problems.length > 0) break;
      options.onStage?.(stage.name);
      await stage.run(ctx);
    }
  } catch (error) {
    await options.output.abort();
    throw error;
  }
  if (ctx.problems.length > 0) {
    await options.output.abort();
    return { ok: false, problems: ctx.problems };
  }
  return { ok: true, ctx };
}
