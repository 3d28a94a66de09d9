/**
 * One snapshot from one market's records (without markets: all of them), stage by stage: drop →
 * localize → index → places → render → history → manifest. A build runs it once, or once per market into the
 * market's folder (decision: markets); the caller commits.
 */
import type { SnapshotContent } from "../api/_core/format/layout/content.js";
import type { Manifest } from "../api/_core/format/layout/manifest.js";
import { epochSecondsOfKey, instantKeyOf } from "../api/_core/format/primitives/date-time.js";
import { type HistoryReport, recordHistory } from "./history/carry-history.js";
import { indexRecords } from "./link/index-records.js";
import { dropBeforeOf, dropPastShowtimes } from "./localize/drop-before.js";
import { type LocalizedRecords, localizeRecords } from "./localize/localize.js";
import { findPlaces, placeCountriesOf } from "./places/find-places.js";
import { readGazetteer } from "./places/read-gazetteer.js";
import type { MarketPrevious } from "./markets/market-previous.js";
import type { MarketRecords } from "./markets/partition-markets.js";
import type { BodyPool } from "./render/body-pool.js";
import { renderSnapshot } from "./render/render-snapshot.js";
import type { Problem } from "./report/problems.js";
import { type BuildOptions, type CheckOptions, DEFAULT_KEEP, type StageName } from "./build-types.js";
import type { OutputWriter } from "./write/output-writer.js";
import { writeManifestLast } from "./write/write-snapshot.js";

/** Runs a stage, telling the caller its name (and the market it runs for, in a multi-market build). */
export type Stage = <T>(name: StageName, run: () => T, market?: string) => T;

export function stagesOf(options: CheckOptions): Stage {
  return (name, run, market) => {
    options.onStage?.(name, market);
    return run();
  };
}

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

/** Drop and localize: a market's records as its snapshot holds them, each market by its own previous snapshot. */
export function localizeMarket(
  part: MarketRecords,
  previous: MarketPrevious,
  options: CheckOptions,
  stage: Stage,
  warnings: Problem[],
): LocalizedRecords {
  const id = part.market?.id;
  const before = dropBeforeOf(options.dropBefore, previous.dir);
  const scheduled = stage("drop", () => dropPastShowtimes(part.linked, before), id);
  return stage("localize", () => localizeRecords(scheduled, warnings), id);
}

/**
 * Index to manifest: writes one snapshot into `output` (not committed) and returns its manifest and
 * history; `pool`, when given, encodes its stored bodies (one for every market: its workers start once).
 */
export async function writeMarketSnapshot(
  localized: LocalizedRecords,
  part: MarketRecords,
  previous: MarketPrevious,
  output: OutputWriter,
  options: BuildOptions,
  stage: Stage,
  pool?: BodyPool,
): Promise<{ manifest: Manifest; history: HistoryReport }> {
  const id = part.market?.id;
  const content = stage("index", () => indexRecords(localized), id);
  const places = stage(
    "places",
    () => findPlaces(content.cinemas, readGazetteer(placeCountriesOf(content.cinemas))),
    id,
  );
  const rendered = await stage(
    "render",
    () =>
      renderSnapshot(content, places, output, {
        gzipLevel: options.gzipLevel ?? 6,
        gzipWorkers: options.gzipWorkers,
        layout: options.layout,
        onProgress: (done, total) => options.onProgress?.("render", done, total),
        pool,
        market: id,
      }),
    id,
  );
  const effectiveKey = localized.dropped && instantKeyOf(localized.dropped.effective);
  const historied = await stage(
    "history",
    () =>
      recordHistory(output, rendered.files, rendered.counts, {
        previous: previous.dir,
        noPrevious: previous.restarted,
        newHistory: options.newHistory,
        keep: options.keep ?? DEFAULT_KEEP,
        builtAt: epochSecondsOfKey(effectiveKey ?? latestObservation(content)),
        dropBeforeKey: localized.dropped?.before.key,
        contentDigests: [rendered.files["index.pages"].digest, rendered.files["records.blocks"].digest].map(String),
        // Builds that keep to this thread (gzipWorkers 0) compare on it too.
        scanWorker: options.gzipWorkers !== 0,
      }),
    id,
  );
  const manifest = stage(
    "write",
    () =>
      writeManifestLast(
        { ...rendered, files: historied.files },
        historied.facts,
        output,
        localized.dropped,
        part.market,
      ),
    id,
  );
  return { manifest, history: historied.report };
}
