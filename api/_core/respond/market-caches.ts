/**
 * Where an admitted request is served from (decision: markets): a snapshot's source and the caches of
 * its answers. A deployment without markets has one place; each market of a multi-market folder has
 * its own, made on its first request, since a cache speaks for one snapshot at a time (markets
 * sharing one would empty it at every turn). The markets share the deployment's cache budgets, so
 * a server holds what one snapshot's caches held, however many markets it serves.
 */
import type { SnapshotSource } from "../format/read/snapshot-source.js";
import { type CacheBudgets, DEFAULT_CACHE_BUDGETS, ResponseCache } from "./response-cache.js";

export interface Place {
  source: SnapshotSource;
  cache: ResponseCache;
}

/** One market's share of the budgets. */
function shareOf(budgets: CacheBudgets, markets: number): CacheBudgets {
  const n = Math.max(1, markets);
  return {
    storedBytes: Math.floor(budgets.storedBytes / n),
    composedBytes: Math.floor(budgets.composedBytes / n),
    memoBytes: Math.floor(budgets.memoBytes / n),
  };
}

export class MarketPlaces {
  /** By the market's source: a market gone from the index takes its caches with it. */
  private readonly places = new WeakMap<SnapshotSource, Place>();

  constructor(private readonly budgets: CacheBudgets = DEFAULT_CACHE_BUDGETS) {}

  /** The place of a market served from `source`, one of `markets`. */
  of(source: SnapshotSource, markets: number): Place {
    let place = this.places.get(source);
    if (!place) {
      place = { source, cache: new ResponseCache(shareOf(this.budgets, markets)) };
      this.places.set(source, place);
    }
    return place;
  }
}
