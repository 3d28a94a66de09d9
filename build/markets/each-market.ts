/**
 * The per-market half of a multi-market build (decision: markets): each market's records dropped,
 * localized and written as a complete snapshot into the folder named by its id, carrying the
 * history of its own previous snapshot; then the folder's index last, and the whole folder swapped
 * in. One market at a time, so only one market's localized records are held at once.
 */
import { LIST_RESOURCES, type Manifest } from "../../api/_core/format/layout/manifest.js";
import type { Market } from "../../api/_core/format/layout/market-rules.js";
import type { MarketsIndex } from "../../api/_core/format/layout/markets-index.js";
import type { MarketSummary } from "../../api/_core/format/layout/market-summary.js";
import { previousManifest } from "../history/carry-history.js";
import type { ZoneCounts } from "../localize/localize.js";
import { createBodyPool } from "../render/body-pool.js";
import type { Problem } from "../report/problems.js";
import type { BuildOptions, CheckOptions, MarketReport, MarketsReport } from "../build-types.js";
import { localizeMarket, type Stage, writeMarketSnapshot } from "../run-snapshot.js";
import { summarizeWritten, writeMarketsIndex } from "../write/write-snapshot.js";
import { previousOfMarkets } from "./market-previous.js";
import { type MarketRecords, type PartitionedRecords, showtimeCount, takeShowtimes } from "./partition-markets.js";

function addZoneCounts(sum: ZoneCounts, counts: ZoneCounts): ZoneCounts {
  return {
    given: sum.given + counts.given,
    fromCoordinates: sum.fromCoordinates + counts.fromCoordinates,
    fromCountry: sum.fromCountry + counts.fromCountry,
    without: sum.without + counts.without,
  };
}

const NO_ZONES: ZoneCounts = { given: 0, fromCoordinates: 0, fromCountry: 0, without: 0 };

/** Counts over every market: cinemas and showtimes are each in one, films counted once, the attributes shared. */
function totalsOf(split: PartitionedRecords, attributes: number, markets: readonly MarketReport[]): Manifest["counts"] {
  const sum = (resource: "cinemas" | "showtimes") => markets.reduce((n, m) => n + m.counts[resource], 0);
  return { cinemas: sum("cinemas"), films: split.filmsShowing, showtimes: sum("showtimes"), attributes };
}

const attributesOf = (split: PartitionedRecords) => split.markets[0]!.linked.records.attributes.length;

/**
 * The order markets are built in: the fewest showtimes first. A market's records are let go once
 * its snapshot is written, so every market's records are held only while the smallest is built,
 * and the largest market's working set only beside its own records and those of none before it
 * (7.4M showtimes in 23 markets: 3.5 GB of peak RSS in markets.json's order; docs/performance.md).
 */
export function buildOrder(split: PartitionedRecords): number[] {
  const sizes = split.markets.map((part, at) => ({ at, showtimes: showtimeCount(part) }));
  return sizes.sort((a, b) => a.showtimes - b.showtimes || a.at - b.at).map((size) => size.at);
}

/** Each market's records checked as the build checks them, with nothing written (`--check`). */
export function checkEachMarket(split: PartitionedRecords, options: CheckOptions, stage: Stage, warnings: Problem[]) {
  const markets = split.markets.map((part) => part.market!);
  const previous = previousOfMarkets(options.previous, markets);
  let zoneCounts = NO_ZONES;
  const reports = split.markets.map((part, i): MarketReport => {
    // A previous snapshot a build could not read fails the check as it would the build.
    previousManifest(previous[i]!.dir);
    const localized = localizeMarket(takeShowtimes(part), previous[i]!, options, stage, warnings);
    zoneCounts = addZoneCounts(zoneCounts, localized.zoneCounts);
    const counts = Object.fromEntries(LIST_RESOURCES.map((r) => [r, localized.records[r].length]));
    return { market: part.market!, counts: counts as Manifest["counts"], dropped: localized.dropped };
  });
  const report: MarketsReport = { markets: reports, filmsInNoMarket: split.filmsInNoMarket };
  return { counts: totalsOf(split, attributesOf(split), reports), report: { zoneCounts, markets: report } };
}

/**
 * Every market's snapshot written into its folder (in buildOrder, each as if alone: the output and
 * the report are those of markets.json's order), then the index, then the swap. The split is
 * consumed: each market's records are let go as soon as its snapshot is written.
 */
export async function buildEachMarket(
  split: PartitionedRecords,
  options: BuildOptions,
  stage: Stage,
  warnings: Problem[],
): Promise<{
  markets: MarketsIndex;
  manifests: Manifest[];
  counts: Manifest["counts"];
  report: { zoneCounts: ZoneCounts; markets: MarketsReport };
}> {
  const markets = split.markets.map((part) => part.market!);
  const previous = options.newHistory ? markets.map(() => ({})) : previousOfMarkets(options.previous, markets);
  const attributes = attributesOf(split);
  const order = buildOrder(split);
  const parts: Array<MarketRecords | undefined> = split.markets.splice(0);
  let zoneCounts = NO_ZONES;
  const built: Array<{ market: Market; manifest: Manifest; summary: MarketSummary; report: MarketReport }> = [];
  const marketWarnings = markets.map((): Problem[] => []);
  // One set of body workers for every market: starting them per market cost more than a small market's render.
  const pool = await createBodyPool(options.gzipLevel ?? 6, options.gzipWorkers);
  try {
    for (const i of order) {
      const part = takeShowtimes(parts[i]!);
      parts[i] = undefined;
      const market = part.market!;
      const localized = localizeMarket(part, previous[i]!, options, stage, marketWarnings[i]!);
      zoneCounts = addZoneCounts(zoneCounts, localized.zoneCounts);
      const output = options.output.folder(market.id);
      const written = await writeMarketSnapshot(localized, part, previous[i]!, output, options, stage, pool);
      const { manifest, history } = written;
      built[i] = {
        market,
        manifest,
        summary: summarizeWritten(manifest, output),
        report: { market, counts: manifest.counts, dropped: localized.dropped, history },
      };
    }
  } finally {
    await pool.close();
  }
  warnings.push(...marketWarnings.flat());
  const index = await stage("write", () => writeMarketsIndex(options.output, built));
  const reports = built.map((b) => b.report);
  return {
    markets: index,
    manifests: built.map((b) => b.manifest),
    counts: totalsOf(split, attributes, reports),
    report: { zoneCounts, markets: { markets: reports, filmsInNoMarket: split.filmsInNoMarket } },
  };
}
