/**
 * A multi-market folder (decision: markets): its index, markets.json, and each market's snapshot in
 * the folder named by its id. Opening checks each market's manifest against the index (the same id,
 * name, countries and snapshot id), so a folder pieced together from two builds is refused whole;
 * every failure is a SnapshotError naming the file at fault from the folder's top.
 */
import { existsSync, readFileSync } from "node:fs";
import { SnapshotError } from "../primitives/errors.js";
import { MARKETS_INDEX_FILE, resolveInside } from "../primitives/files.js";
import type { Manifest } from "../layout/manifest.js";
import { type IndexedMarket, type MarketsIndex, parseMarketsIndex } from "../layout/markets-index.js";
import { type CacheBudgets, DEFAULT_BUDGETS, readManifest, Snapshot } from "./snapshot.js";

/** Whether `dir` holds a multi-market folder's index (a single-market snapshot holds a manifest instead). */
export function isMarketsFolder(dir: string): boolean {
  return existsSync(resolveInside(dir, MARKETS_INDEX_FILE));
}

/** Reads and parses a multi-market folder's index. */
export function readMarketsIndex(dir: string): MarketsIndex {
  let text: string;
  try {
    text = readFileSync(resolveInside(dir, MARKETS_INDEX_FILE), "utf8");
  } catch (error) {
    throw new SnapshotError(
      MARKETS_INDEX_FILE,
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}): build a snapshot first`,
    );
  }
  return parseMarketsIndex(text);
}

/** The folder of market `id`'s snapshot (ids are checked names, and the path is still kept inside). */
export function marketDir(dir: string, id: string): string {
  return resolveInside(dir, id);
}

/** A SnapshotError of a market's snapshot, naming its file from the folder's top. */
function inMarket(id: string, error: unknown): unknown {
  return error instanceof SnapshotError ? new SnapshotError(`${id}/${error.file}`, error.reason) : error;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Throws unless a market's manifest is the market the index names: the same id, name, countries and snapshot id. */
export function checkMarketManifest(market: IndexedMarket, manifest: Manifest): void {
  const own = manifest.market;
  const matches =
    own !== undefined &&
    own.id === market.id &&
    own.name === market.name &&
    sameList(own.countries, market.countries) &&
    manifest.snapshotId === market.snapshotId;
  if (!matches) throw new SnapshotError("manifest.json", `is not the market ${MARKETS_INDEX_FILE} names`);
}

/** Opens one market's snapshot and checks its manifest is the market the index names. */
function openMarket(dir: string, market: IndexedMarket, budgets: CacheBudgets): Snapshot {
  const folder = marketDir(dir, market.id);
  const manifest = readManifest(folder);
  checkMarketManifest(market, manifest);
  return new Snapshot(manifest, folder, budgets);
}

export interface OpenMarkets {
  index: MarketsIndex;
  /** Each market with its open snapshot, in the index's order. */
  markets: Array<{ market: IndexedMarket; dir: string; snapshot: Snapshot }>;
  close(): void;
}

/** Opens a multi-market folder: its index, then every market's snapshot; throws SnapshotError (none left open). */
export function openMarketsFolder(dir: string, budgets: CacheBudgets = DEFAULT_BUDGETS): OpenMarkets {
  const index = readMarketsIndex(dir);
  const markets: OpenMarkets["markets"] = [];
  const close = () => markets.forEach(({ snapshot }) => snapshot.close());
  for (const market of index.markets) {
    try {
      markets.push({ market, dir: marketDir(dir, market.id), snapshot: openMarket(dir, market, budgets) });
    } catch (error) {
      close();
      throw inMarket(market.id, error);
    }
  }
  return { index, markets, close };
}
