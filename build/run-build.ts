/**
 * The build: each stage a function from the previous stage's output to its own, so the types
 * enforce the order (load → validate → link → drop → localize → index → render → history → write). Problems are data,
 * collected from every stage that can find them and printed once by the caller.
 */
import type { BlockLayout } from "./encode/encode-showtimes.js";
import type { SnapshotContent } from "../api/_core/format/layout/content.js";
import { LIST_RESOURCES, type Manifest } from "../api/_core/format/layout/manifest.js";
import { epochSecondsOfKey, instantKeyOf } from "../api/_core/format/primitives/date-time.js";
import { restoreInterruptedSwap } from "../api/_core/format/read/interrupted-swap.js";
import { Interner } from "./validate/entries.js";
import { type DropBefore, type DroppedShowtimes, dropBeforeOf, dropPastShowtimes } from "./localize/drop-before.js";
import { type HistoryReport, previousManifest, recordHistory } from "./history/carry-history.js";
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

/** What checking the data needs: the stages up to localize, which write nothing (`--check`). */
export interface CheckOptions {
  dataDir: string;
  /** Leave out showtimes that start before this instant (decision: upcoming showtimes). */
  dropBefore?: DropBefore;
  /** The snapshot in service, whose changes history the new one carries forward (decision: changes feed). */
  previous?: string;
  validateWorkers?: number;
  onStage?: (name: StageName) => void;
  /** Told how many worker threads validation used (0: the main thread). */
  onValidationWorkers?: (count: number) => void;
  /** `estimated`: the total is an estimate (validation counts records it has not read yet). */
  onProgress?: (stage: StageName, done: number, total?: number, estimated?: boolean) => void;
}

export interface BuildOptions extends CheckOptions {
  output: OutputWriter;
  /** Begin a new changes history (--new-history), whatever `previous` holds. */
  newHistory?: boolean;
  /** What the history keeps: at least this many generations and days (defaults: 30 and 7). */
  keep?: { generations: number; days: number };
  gzipLevel?: number;
  gzipWorkers?: number;
  layout?: BlockLayout;
}

/** What checking the data tells the operator: all a build does but the history. */
export interface CheckReport {
  zoneCounts: ZoneCounts;
  dropped?: DroppedShowtimes;
  /** Problems that do not stop the build (problems.ts WARNING_CODES). */
  warnings: Problem[];
  /** What the data folder holds that the build does not read (load/source-files.ts). */
  unread: string[];
}

/** What a successful build tells the operator beside its manifest. */
export interface BuildReport extends CheckReport {
  history: HistoryReport;
}

/** What the history keeps unless told otherwise (decision: changes feed). */
export const DEFAULT_KEEP = { generations: 30, days: 7 };

export type BuildResult = { ok: true; manifest: Manifest; report: BuildReport } | { ok: false; problems: Problem[] };
export type CheckResult =
  | { ok: true; counts: Manifest["counts"]; report: CheckReport }
  | { ok: false; problems: Problem[] };

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

type Stage = <T>(name: StageName, run: () => T) => T;

function stagesOf(options: CheckOptions): Stage {
  return (name, run) => {
    options.onStage?.(name);
    return run();
  };
}

/** Load to localize: the records a snapshot is made of, or every problem that stops it. */
async function prepareRecords(options: CheckOptions, stage: Stage) {
  const problems: Problem[] = [];
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
      new Interner(),
    ),
  );
  const linked = stage("link", () => linkRecords(valid, problems));
  // Output is made only from data without a single problem: nothing half-valid is ever served.
  if (problems.length > 0) return { ok: false as const, problems };
  const scheduled = stage("drop", () => dropPastShowtimes(linked, dropBeforeOf(options.dropBefore, options.previous)));
  const warnings: Problem[] = [];
  const localized = stage("localize", () => localizeRecords(scheduled, warnings));
  return { ok: true as const, localized, warnings, unread: sources.unread };
}

/**
 * The data checked as a build checks it, and its report but the history, with nothing written
 * (`--check`). A previous snapshot that a build could not read fails it as it would the build.
 */
export async function checkData(options: CheckOptions): Promise<CheckResult> {
  const prepared = await prepareRecords(options, stagesOf(options));
  if (!prepared.ok) return prepared;
  previousManifest(options.previous);
  const { records, zoneCounts, dropped } = prepared.localized;
  const counts = Object.fromEntries(LIST_RESOURCES.map((r) => [r, records[r].length])) as Manifest["counts"];
  return { ok: true, counts, report: { zoneCounts, dropped, warnings: prepared.warnings, unread: prepared.unread } };
}

export async function runBuild(options: BuildOptions): Promise<BuildResult> {
  const stage = stagesOf(options);
  // A --previous that a build killed mid-swap left aside is put back before anyone reads it.
  if (options.previous !== undefined) restoreInterruptedSwap(options.previous);
  try {
    const prepared = await prepareRecords(options, stage);
    if (!prepared.ok) {
      await options.output.abort();
      return prepared;
    }
    const { localized, warnings } = prepared;
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
        newHistory: options.newHistory,
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
      unread: prepared.unread,
      history: historied.report,
    };
    return { ok: true, manifest, report };
  } catch (error) {
    await options.output.abort();
    throw error;
  }
}
