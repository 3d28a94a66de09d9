/**
 * A multi-market folder being served (decision: markets). Its index, markets.json, is read on first
 * use and its stat looked at again at most every `recheckMs`, as a snapshot's manifest is; each market
 * is a SnapshotSource of its own folder, reopened on a rebuild as one snapshot is, so a market that
 * cannot be opened answers 503 alone and the others are served. A rebuilt index that cannot be read
 * replaces nothing: the markets in service stay until one that can comes.
 */
import { SnapshotError } from "../primitives/errors.js";
import { MARKETS_INDEX_FILE, resolveInside } from "../primitives/files.js";
import type { Manifest } from "../layout/manifest.js";
import type { IndexedMarket, MarketsIndex } from "../layout/markets-index.js";
import { checkMarketManifest, marketDir, readMarketsIndex } from "./markets-folder.js";
import { type CacheBudgets, DEFAULT_BUDGETS, type Snapshot } from "./snapshot.js";
import { SnapshotSource, stampOrRestore } from "./snapshot-source.js";

export interface MarketsSourceOptions {
  /** How often to look for a replaced index or market (0: on every use). */
  recheckMs?: number;
  /**
   * Each market's snapshot's budgets (default: DEFAULT_BUDGETS each), as a function holding one
   * market has; or, with `shared`, the budgets of all the markets served, split among them.
   */
  budgets?: CacheBudgets;
  shared?: boolean;
  /** Told of each market's snapshot taken into service (its manifest names the market). */
  onServing?: (snapshot: Snapshot) => void;
  /**
   * Told, once per problem, that a rebuilt market (`market`) or index (`market` undefined) cannot be
   * taken, and what stays in service: the market's snapshot id, or the ids of every market's.
   */
  onNotTaken?: (problem: SnapshotError, servingId: string, market?: string) => void;
}

/**
 * A market's share of budgets that every market of an index shares: half split evenly, half by
 * showtimes (a market's blocks are read in proportion to them), so the shares add up to the
 * budgets and the smallest market still keeps half an even share.
 */
export function marketShare(budgets: CacheBudgets, market: IndexedMarket, markets: readonly IndexedMarket[]) {
  const showtimes = (m: IndexedMarket) => m.summary?.counts.showtimes ?? 0;
  const total = markets.reduce((sum, m) => sum + showtimes(m), 0);
  const n = Math.max(1, markets.length);
  const weight = 1 / (2 * n) + (total > 0 ? showtimes(market) / (2 * total) : 1 / (2 * n));
  return {
    pageBytes: Math.floor(budgets.pageBytes * weight),
    blockBytes: Math.floor(budgets.blockBytes * weight),
  };
}

/** A market of the index in service and the source of its snapshot. */
export interface ServedMarket {
  market: IndexedMarket;
  source: SnapshotSource;
}

export class MarketsSource {
  /** The index's markets in service, by id, in the index's order. */
  private served: Map<string, ServedMarket> | undefined;
  private stamp = "";
  private checkedAt = 0;
  private failure: SnapshotError | undefined;
  private notTaken: string | undefined;

  constructor(
    readonly dir: string,
    private readonly options: MarketsSourceOptions = {},
  ) {}

  /** The markets in service, in the index's order; throws SnapshotError while no index can be read. */
  markets(): ReadonlyMap<string, ServedMarket> {
    const now = Date.now();
    const recheckMs = this.options.recheckMs ?? 0;
    if (this.served && now - this.checkedAt < recheckMs) return this.served;
    const { stamp } = stampOrRestore(this.dir, resolveInside(this.dir, MARKETS_INDEX_FILE));
    if (this.failure && stamp === this.stamp && now - this.checkedAt < recheckMs) throw this.failure;
    this.checkedAt = now;
    if (this.served && stamp === this.stamp) return this.served;
    let index: MarketsIndex;
    try {
      if (stamp === "")
        throw new SnapshotError(MARKETS_INDEX_FILE, "does not exist: build a snapshot first (npm run build)");
      index = readMarketsIndex(this.dir);
    } catch (error) {
      const problem = error instanceof SnapshotError ? error : new SnapshotError(MARKETS_INDEX_FILE, String(error));
      if (this.served) return this.keep(problem, stamp, this.served);
      this.stamp = stamp;
      this.failure = problem;
      throw problem;
    }
    return this.take(index, stamp);
  }

  /** Market `id` in service; undefined when the index names no such market. Throws as markets(). */
  market(id: string): ServedMarket | undefined {
    return this.markets().get(id);
  }

  /**
   * Looks at the index and at every market now, off the request path (a server's timer): a rebuilt
   * one is opened, and told, here. What cannot be read is the requests' 503 to say.
   */
  look(): void {
    let markets: ReadonlyMap<string, ServedMarket>;
    try {
      markets = this.markets();
    } catch {
      return;
    }
    for (const { source } of markets.values()) {
      try {
        source.current();
      } catch {
        // That market's requests answer 503.
      }
    }
  }

  /** Closes every market's snapshot and forgets the index. */
  close(): void {
    for (const { source } of this.served?.values() ?? []) source.close();
    this.served = undefined;
    this.stamp = "";
    this.failure = undefined;
    this.notTaken = undefined;
  }

  /** The index in service kept over a rebuilt one that cannot be read; told once per problem. */
  private keep(problem: SnapshotError, stamp: string, served: Map<string, ServedMarket>): Map<string, ServedMarket> {
    const notTaken = `${stamp} ${problem.message}`;
    if (notTaken !== this.notTaken) {
      const ids = [...served.values()].map(({ market }) => market.snapshotId).join(",");
      this.options.onNotTaken?.(problem, ids);
    }
    this.notTaken = notTaken;
    return served;
  }

  /** Takes an index into service: a market kept keeps its source (and snapshot); one gone is closed. */
  private take(index: MarketsIndex, stamp: string): Map<string, ServedMarket> {
    const next = new Map<string, ServedMarket>();
    for (const market of index.markets) {
      const kept = this.served?.get(market.id);
      if (kept) kept.market = market;
      next.set(market.id, kept ?? this.open(market, index.markets));
    }
    for (const [id, { source }] of this.served ?? []) if (!next.has(id)) source.close();
    this.served = next;
    this.stamp = stamp;
    this.failure = undefined;
    this.notTaken = undefined;
    return next;
  }

  /** A market's source; with shared budgets, its share is that of the index it first came in. */
  private open(market: IndexedMarket, markets: readonly IndexedMarket[]): ServedMarket {
    const { options } = this;
    const budgets = options.shared ? marketShare(options.budgets ?? DEFAULT_BUDGETS, market, markets) : options.budgets;
    const served: ServedMarket = { market, source: undefined as unknown as SnapshotSource };
    served.source = new SnapshotSource(marketDir(this.dir, market.id), {
      recheckMs: options.recheckMs,
      budgets,
      within: market.id,
      onServing: options.onServing,
      onNotTaken: (problem, serving) => options.onNotTaken?.(problem, serving.manifest.snapshotId, market.id),
      check: (manifest) => this.check(served, manifest),
    });
    return served;
  }

  /**
   * A market's manifest against the index. The two are looked at on their own clocks, so a rebuilt
   * market may be seen before its rebuilt index: a manifest the index in service does not name sends
   * for the index at once, and only the index then in service decides.
   */
  private check(served: ServedMarket, manifest: Manifest): void {
    if (manifest.snapshotId !== served.market.snapshotId) {
      this.checkedAt = Number.NEGATIVE_INFINITY;
      try {
        this.markets();
      } catch {
        // The index's own problem; the market is judged by the index still in service.
      }
      if (this.served?.get(served.market.id) !== served)
        throw new SnapshotError("manifest.json", `is no longer a market ${MARKETS_INDEX_FILE} names`);
    }
    checkMarketManifest(served.market, manifest);
  }
}
