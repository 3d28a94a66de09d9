/**
 * The last stage: write the manifest (its presence marks a complete snapshot) and swap the snapshot
 * in; in a multi-market build, each market's manifest, then the folder's index (with what each
 * market's snapshot holds, read back from what was written), then the swap.
 */
import { createHash } from "node:crypto";
import type { HistoryFacts } from "../../api/_core/format/layout/history.js";
import { SNAPSHOT_FORMAT, type Manifest } from "../../api/_core/format/layout/manifest.js";
import type { Market } from "../../api/_core/format/layout/market-rules.js";
import {
  encodeMarketsIndex,
  MARKETS_INDEX_FORMAT,
  type MarketsIndex,
} from "../../api/_core/format/layout/markets-index.js";
import type { MarketSummary } from "../../api/_core/format/layout/market-summary.js";
import { MARKETS_INDEX_FILE } from "../../api/_core/format/primitives/files.js";
import { DEFAULT_BUDGETS, Snapshot } from "../../api/_core/format/read/snapshot.js";
import { summarizeSnapshot } from "../../api/_core/compose/compose-markets.js";
import { writeManifest } from "../encode/write-files.js";
import { DEFAULT_LIMIT } from "../../api/_core/endpoints/parse-request.js";
import { utcTextOfKey } from "../../api/_core/format/primitives/date-time.js";
import type { DroppedShowtimes } from "../localize/drop-before.js";
import type { OutputWriter } from "./output-writer.js";
import type { RenderedSnapshot } from "../render/render-snapshot.js";

/**
 * A market's snapshot id: the digest of its files with the market folded in, so two markets whose
 * records are the same bytes (two empty ones) still have ids, and entity tags, of their own.
 */
function marketSnapshotId(digest: string, market: Market): string {
  return createHash("sha256")
    .update(`market\n${JSON.stringify(market)}\n${digest}`)
    .digest("hex")
    .slice(0, 32);
}

/** Writes the manifest of the snapshot `output` holds, last of its files; the caller commits. */
export function writeManifestLast(
  rendered: Omit<RenderedSnapshot, "files"> & { files: Manifest["files"] },
  history: HistoryFacts,
  output: OutputWriter,
  dropped?: DroppedShowtimes,
  market?: Market,
): Manifest {
  // A digest of every byte written: equal ids, equal snapshots (cursors and tags stay valid).
  const digest = output.digest();
  const manifest: Manifest = {
    format: SNAPSHOT_FORMAT,
    snapshotId: market ? marketSnapshotId(digest, market) : digest,
    defaultLimit: DEFAULT_LIMIT,
    counts: rendered.counts,
    freshness: rendered.freshness,
    files: rendered.files,
    history,
  };
  // Showtimes before it were left out on purpose (decision: upcoming showtimes); mirrors drop them too.
  // The instant asked for is for the next build only: outside the snapshot id, and never served.
  if (dropped) {
    manifest.dropBefore = dropped.effective;
    manifest.dropBeforeRequested = utcTextOfKey(dropped.before.key);
  }
  // Absent without markets, so such a build writes today's bytes (decision: markets).
  if (market) manifest.market = market;
  writeManifest(output, manifest);
  return manifest;
}

/** Writes the manifest and swaps the snapshot in. */
export async function writeSnapshot(
  rendered: Omit<RenderedSnapshot, "files"> & { files: Manifest["files"] },
  history: HistoryFacts,
  output: OutputWriter,
  dropped?: DroppedShowtimes,
): Promise<Manifest> {
  const manifest = writeManifestLast(rendered, history, output, dropped);
  await output.commit();
  return manifest;
}

/**
 * What a market's snapshot holds (GET /markets: decision: markets), read from the snapshot `output`
 * holds once its manifest is written, by the composer the server lists markets with.
 */
export function summarizeWritten(manifest: Manifest, output: OutputWriter): MarketSummary {
  const snapshot = new Snapshot(manifest, output.root, DEFAULT_BUDGETS);
  try {
    return summarizeSnapshot(snapshot);
  } finally {
    snapshot.close();
  }
}

/**
 * Writes a multi-market folder's index once every market's snapshot is written (its presence marks a
 * complete folder) and swaps the whole folder in.
 */
export async function writeMarketsIndex(
  output: OutputWriter,
  markets: ReadonlyArray<{ market: Market; manifest: Manifest; summary: MarketSummary }>,
): Promise<MarketsIndex> {
  const index: MarketsIndex = {
    format: MARKETS_INDEX_FORMAT,
    markets: markets.map(({ market, manifest, summary }) => ({ ...market, snapshotId: manifest.snapshotId, summary })),
  };
  output.write(MARKETS_INDEX_FILE, encodeMarketsIndex(index));
  await output.commit();
  return index;
}
