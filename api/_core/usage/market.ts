/**
 * The market a counted request was served from (decision: usage). A deployment that serves one
 * snapshot counts every request under `default`; one with markets (decision: markets) under the
 * market its path names or the default market serves, and under `-`, which no market id can be,
 * what no market serves: the list of markets, a market the index does not name, a path no market's.
 */
import type { MarketRoute } from "../endpoints/market-path.js";

/** The market of a deployment that serves a single one. */
export const SINGLE_MARKET = "default";
/** What no market serves, in a deployment with markets. */
export const NO_MARKET = "-";

/** The market a target (origin-form) is served from, in a deployment that serves one snapshot. */
export function marketOf(_url: string): string {
  return SINGLE_MARKET;
}

/**
 * What a request to a deployment with markets is counted as: the target within its market (whose
 * operation is named as in any market) and that market, `served` when the index names it.
 */
export function countedInMarkets(url: string, route: MarketRoute, served: string | undefined) {
  const within = route.to === "market" || route.to === "no-default" ? route.rest : url;
  return { url: within, market: served ?? NO_MARKET };
}
