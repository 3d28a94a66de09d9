/**
 * Each market's previous snapshot, whose history it carries (decision: markets): market `id`'s is
 * `<previous>/<id>/` when the previous is a multi-market folder holding that market; otherwise the
 * market begins its history afresh, and the report says why, market by market.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { Market } from "../../api/_core/format/layout/market-rules.js";
import { MANIFEST_FILE } from "../../api/_core/format/primitives/files.js";
import { isMarketsFolder, marketDir, readMarketsIndex } from "../../api/_core/format/read/markets-folder.js";

/** A market's previous snapshot folder, or why it has none (undefined both: no previous was given). */
export interface MarketPrevious {
  dir?: string;
  restarted?: string;
}

/** The previous multi-market folder's markets; throws (the build's exit 2) when its index cannot be read. */
function previousMarketIds(previous: string): Set<string> {
  try {
    return new Set(readMarketsIndex(previous).markets.map((market) => market.id));
  } catch (error) {
    throw new Error(`--previous ${previous}: ${(error as Error).message}`);
  }
}

/** Where each market's history comes from, in the markets' order. */
export function previousOfMarkets(previous: string | undefined, markets: readonly Market[]): MarketPrevious[] {
  if (previous === undefined) return markets.map(() => ({}));
  if (isMarketsFolder(previous)) {
    const held = previousMarketIds(previous);
    return markets.map(({ id }) =>
      held.has(id) ? { dir: marketDir(previous, id) } : { restarted: `the previous snapshot has no market ${id}` },
    );
  }
  // A single-market snapshot names no market: none of its records is known to be any market's.
  if (existsSync(path.join(previous, MANIFEST_FILE)))
    return markets.map(() => ({ restarted: "the previous snapshot was built without markets" }));
  // Neither: the history stage reads it as the one snapshot and says why it cannot (exit 2).
  return markets.map(() => ({ dir: previous }));
}
