/**
 * What a snapshot folder a release builds or keeps holds (decision: markets, released together):
 * one snapshot, named by its id, or a multi-market folder, named by its index's id (marketsIndexId,
 * which RELEASE_SNAPSHOT_ID names it by) and holding each market's snapshot id and counts. Read
 * from the manifests and the index alone, so reading it opens no snapshot.
 */
import type { ListResource } from "../../api/_core/format/layout/manifest.js";
import { marketsIndexId } from "../../api/_core/format/layout/markets-index.js";
import { SnapshotError } from "../../api/_core/format/primitives/errors.js";
import {
  checkMarketManifest,
  isMarketsFolder,
  marketDir,
  readMarketsIndex,
} from "../../api/_core/format/read/markets-folder.js";
import { readManifest } from "../../api/_core/format/read/snapshot.js";

export type Counts = Record<ListResource, number>;

/** One market of a multi-market release: what its snapshot is and holds. */
export interface MarketRelease {
  id: string;
  snapshotId: string;
  counts: Counts;
}

/**
 * A folder's id, and its counts or each market's: a film or an attribute is in every market that
 * has it, so the markets' counts do not add up to the folder's.
 */
export type FolderSummary =
  | { snapshotId: string; counts: Counts; markets?: undefined }
  | { snapshotId: string; counts?: undefined; markets: MarketRelease[] };

/** Reads a folder's summary; throws SnapshotError naming the file at fault from the folder's top. */
export function summarizeFolder(dir: string): FolderSummary {
  if (!isMarketsFolder(dir)) {
    const manifest = readManifest(dir);
    return { snapshotId: manifest.snapshotId, counts: manifest.counts };
  }
  const index = readMarketsIndex(dir);
  const markets = index.markets.map((market): MarketRelease => {
    try {
      const manifest = readManifest(marketDir(dir, market.id));
      checkMarketManifest(market, manifest);
      return { id: market.id, snapshotId: manifest.snapshotId, counts: manifest.counts };
    } catch (error) {
      if (error instanceof SnapshotError) throw new SnapshotError(`${market.id}/${error.file}`, error.reason);
      throw error;
    }
  });
  return { snapshotId: marketsIndexId(index), markets };
}

/** How a release names what it deploys: "snapshot <id>", or "markets gb, de (index <id>)". */
export function nameRelease(release: { snapshotId: string; markets?: Array<{ id: string }> }): string {
  if (!release.markets) return `snapshot ${release.snapshotId}`;
  return `markets ${release.markets.map((m) => m.id).join(", ")} (index ${release.snapshotId})`;
}

/** A snapshot's counts as the release prints them: "240 showtimes, 6 cinemas, 8 films, 14 attributes". */
export function formatCounts(counts: Counts): string {
  const { showtimes, cinemas, films, attributes } = counts;
  return `${showtimes} showtimes, ${cinemas} cinemas, ${films} films, ${attributes} attributes`;
}

/**
 * What a folder holds, in a line: a snapshot's counts, or the showtimes and cinemas of every market
 * (each is in one market only; the build's report has a line per market).
 */
export function formatHoldings(summary: FolderSummary): string {
  if (!summary.markets) return formatCounts(summary.counts);
  const total = (resource: ListResource) => summary.markets.reduce((sum, m) => sum + m.counts[resource], 0);
  return `${total("showtimes")} showtimes, ${total("cinemas")} cinemas in ${summary.markets.length} markets`;
}
