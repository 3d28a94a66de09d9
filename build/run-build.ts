/**
 * The build: each stage a function from the previous stage's output to its own, so the types
 * enforce the order (load → validate → link → drop → localize → index → render → history → write). Problems are data,
 * collected from every stage that can find them and printed once by the caller.
 */
import type { BlockLayout } from "./encode/encode-showtimes.js";
import type { SnapshotContent } from "../api/_core/format/layout/content.js";
import type { Manifest } from "../api/_core/format/layout/manifest.js";
import { epochSecondsOfKey, instantKeyOf } from "../api/_core/format/primitives/date-time.js";
import { Interner } from "./validate/entries.js";
import { type DropBefore, type DroppedShowtimes, dropBeforeOf, dropPastShowtimes } from "./localize/drop-before.js";
import { type HistoryReport, recordHistory } from "./history/carry-history.js";
import { indexRecords } from "./link/index-records.js";
import { linkRecords } from "./link/link-records.js";
import { loadSources } from "./load/load-sources.js";
import { localizeRecords, type ZoneCounts } from "./localize/localize.js";
import type { OutputWriter } from "./write/output-writer.js";
import type { Problem } from "./report/problems.js";
import { renderSnapshot } from "./render/render-snapshot.js";
import { validateRecords } from "./validate/validate-records.js";
import { writeSnapshot } from "./write/write-snapshot.js";

export const STAGES = ["load", "validate", "link", "drop", "localize", "index", "render", "history", "write"] as const;
export type StageName = (typeof STAGES)[number];

export interface BuildOptions {
  dataDir: string;
  /** Leave out showtimes that start before this instant (decision: upcoming showtimes). */
  dropBefore?: DropBefore;
  output: OutputWriter;
  /** The snapshot in service, whose changes history the new one carries forward (decision: changes feed). */
  previous?: string;
  /** What the history keeps: at least this many generations and days (defaults: 30 and 7). */
  keep?: { generations: number; days: number };
  gzipLevel?: number;
  gzipWorkers?: number;
  validateWorkers?: number;
  layout?: BlockLayout;
  onStage?: (name: StageName) => void;
  /** Told how many worker threads validation used (0: the main thread). */
  onValidationWorkers?: (count: number) => void;
  /** `estimated`: the total is an estimate (validation counts records it has not read yet). */
  onProgress?: (stage: StageName, done: number, total?: number, estimated?: boolean) => void;
}

/** What a successful build tells the operator beside its manifest. */
export interface BuildReport {
  zoneCounts: ZoneCounts;
  dropped?: DroppedShowtimes;
  /** Problems that do not stop the build (problems.ts WARNING_CODES). */
  warnings: Problem[];
  history: HistoryReport;
}

/** What the history keeps unless told otherwise (decision: changes feed). */
export const DEFAULT_KEEP = { generations: 30, days: 7 };

export type BuildResult = { ok: true; manifest: Manifest; report: BuildReport } | { ok: false; problems: Problem[] };

/**
 * The latest observation in the data: a build's time for the history's days rule when it is not
 * told one (--drop-before), deterministic where the wall clock is not.
 */
function latestObservation(content: SnapshotContent): string {
  let latest = "0";
  for (const records of [content.cinemas, content.films])
    for (const record of records) if (record.observed && record.observed.key > latest) latest = record.observed.key;
  for (const showtime of content.showtimes) if (showtime.observedAt.key > latest) latest = showtime.observedAt.key;
  return latest === "0" ? "0100000000000" : latest;
}

export async function runBuild(options: BuildOptions): Promise<BuildResult> {
  const problems: Problem[] = [];
  const interner = new Interner();
  const stage = <T>(name: StageName, run: () => T): T => {
    options.onStage?.(name);
    return run();
  };
  try {
    const sources = await stage("load", () => loadSources(options.dataDir, problems));
    const valid = await stage("validate", () =>
      validateRecords(
        sources,
        {
          workers: options.validateWorkers,
          onProgress: (n, total) => options.onProgress?.("validate", n, total, true),
          onWorkers: options.onValidationWorkers,
        },
        problems,
        interner,
      ),
    );
    const linked = stage("link", () => linkRecords(valid, problems));
    // Output is made only from data without a single problem: nothing half-valid is ever served.
    if (problems.length > 0) {
      await options.output.abort();
      return { ok: false, problems };
    }
    const scheduled = stage("drop", () =>
      dropPastShowtimes(linked, dropBeforeOf(options.dropBefore, options.previous)),
    );
    const warnings: Problem[] = [];
    const localized = stage("localize", () => localizeRecords(scheduled, warnings));
    const content = stage("index", () => indexRecords(localized));
    const rendered = await stage("render", () =>
      renderSnapshot(content, options.output, {
        gzipLevel: options.gzipLevel ?? 6,
        gzipWorkers: options.gzipWorkers,
        layout: options.layout,
        onProgress: (done, total) => options.onProgress?.("render", done, total),
      }),
    );
    const effectiveKey = localized.dropped && instantKeyOf(localized.dropped.effective);
    const historied = await stage("history", () =>
      recordHistory(options.output, rendered.files, rendered.counts, {
        previous: options.previous,
        keep: options.keep ?? DEFAULT_KEEP,
        builtAt: epochSecondsOfKey(effectiveKey ?? latestObservation(content)),
        dropBeforeKey: localized.dropped?.before.key,
        contentDigests: [rendered.files["index.pages"].digest, rendered.files["records.blocks"].digest].map(String),
        // Builds that keep to this thread (gzipWorkers 0) compare on it too.
        scanWorker: options.gzipWorkers !== 0,
      }),
    );
    const manifest = await stage("write", () =>
      writeSnapshot({ ...rendered, files: historied.files }, historied.facts, options.output, localized.dropped),
    );
    const report = {
      zoneCounts: localized.zoneCounts,
      dropped: localized.dropped,
      warnings,
      history: historied.report,
    };
    return { ok: true, manifest, report };
  } catch (error) {
    await options.output.abort();
    throw error;
  }
}
