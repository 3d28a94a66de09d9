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
import type { PartitionedRecords } from "./partition-markets.js";

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
function totalsOf(split: PartitionedRecords, markets: readonly MarketReport[]): Manifest["counts"] {
  const sum = (resource: "cinemas" | "showtimes") => markets.reduce((n, m) => n + m.counts[resource], 0);
  const attributes = split.markets[0]!.linked.records.attributes.length;
  return { cinemas: sum("cinemas"), films: split.filmsShowing, showtimes: sum("showtimes"), attributes };
}

/** Each market's records checked as the build checks them, with nothing written (`--check`). */
export function checkEachMarket(split: PartitionedRecords, options: CheckOptions, stage: Stage, warnings: Problem[]) {
  const markets = split.markets.map((part) => part.market!);
  const previous = previousOfMarkets(options.previous, markets);
  let zoneCounts = NO_ZONES;
  const reports = split.markets.map((part, i): MarketReport => {
    // A previous snapshot a build could not read fails the check as it would the build.
    previousManifest(previous[i]!.dir);
    const localized = localizeMarket(part, previous[i]!, options, stage, warnings);
    zoneCounts = addZoneCounts(zoneCounts, localized.zoneCounts);
    const counts = Object.fromEntries(LIST_RESOURCES.map((r) => [r, localized.records[r].length]));
    return { market: part.market!, counts: counts as Manifest["counts"], dropped: localized.dropped };
  });
  const report: MarketsReport = { markets: reports, filmsInNoMarket: split.filmsInNoMarket };
  return { counts: totalsOf(split, reports), report: { zoneCounts, markets: report } };
}

/** Every market's snapshot written into its folder, then the index, then the swap. */
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
  let zoneCounts = NO_ZONES;
  const built: Array<{ market: Market; manifest: Manifest; summary: MarketSummary; report: MarketReport }> = [];
  // One set of body workers for every market: starting them per market cost more than a small market's render.
  const pool = await createBodyPool(options.gzipLevel ?? 6, options.gzipWorkers);
  try {
    for (const [i, part] of split.markets.entries()) {
      const market = part.market!;
      const localized = localizeMarket(part, previous[i]!, options, stage, warnings);
      zoneCounts = addZoneCounts(zoneCounts, localized.zoneCounts);
      const output = options.output.folder(market.id);
      const written = await writeMarketSnapshot(localized, part, previous[i]!, output, options, stage, pool);
      const { manifest, history } = written;
      built.push({
        market,
        manifest,
        summary: summarizeWritten(manifest, output),
        report: { market, counts: manifest.counts, dropped: localized.dropped, history },
      });
    }
  } finally {
    await pool.close();
  }
  const index = await stage("write", () => writeMarketsIndex(options.output, built));
  const reports = built.map((b) => b.report);
  return {
    markets: index,
    manifests: built.map((b) => b.manifest),
    counts: totalsOf(split, reports),
    report: { zoneCounts, markets: { markets: reports, filmsInNoMarket: split.filmsInNoMarket } },
  };
}
