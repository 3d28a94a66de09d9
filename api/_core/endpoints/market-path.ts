/**
 * Where a market's API is (decision: markets): `/{market}/v1/...` and `/{market}/mcp`, and the list
 * of markets at `/markets`. The split of a target into its market and the rest is a pure function of
 * the path, so the request core and a gateway route alike without loading anything else.
 */
import { MARKET_ID_PATTERN, RESERVED_MARKET_IDS } from "../format/layout/market-rules.js";
import { isMcpTarget } from "./mcp-path.js";

/** The markets and what they hold, at the origin: not under any market. */
export const MARKETS_PATH = "/markets";

/** Whether a target (origin-form) asks for the list of markets; a query, if any, is the endpoint's to refuse. */
export function isMarketsList(url: string): boolean {
  return url.startsWith(MARKETS_PATH) && (url.length === MARKETS_PATH.length || url[MARKETS_PATH.length] === "?");
}

export interface MarketTarget {
  /** The first segment when it can be a market's id (the id rule, not reserved); undefined otherwise. */
  market: string | undefined;
  /** The target after it (`/v1/films?limit=5`), or the whole target when it names no market. */
  rest: string;
}

/**
 * Splits `/gb/v1/films?limit=5` into `gb` and `/v1/films?limit=5`. A first segment that no market may
 * have (`v1`, `mcp`, `markets`, a dotted name) leaves the target whole: `/v1/...` names no market.
 * Whether the market exists is the caller's to know.
 */
export function splitMarket(url: string): MarketTarget {
  let end = 1;
  while (end < url.length && url[end] !== "/" && url[end] !== "?") end++;
  const first = url.slice(1, end);
  if (url[0] !== "/" || !MARKET_ID_PATTERN.test(first) || RESERVED_MARKET_IDS.includes(first))
    return { market: undefined, rest: url };
  return { market: first, rest: url.slice(end) };
}

/** Whether a target within a market (or at the origin) is one of the API's: under /v1, or the MCP endpoint. */
export function isMarketApi(rest: string): boolean {
  return rest === "/v1" || rest.startsWith("/v1/") || rest.startsWith("/v1?") || isMcpTarget(rest);
}

/** A market's base address: `/gb/v1` (undefined: a deployment without markets, `/v1`). */
export function basePathOf(market: string | undefined): string {
  return market === undefined ? "/v1" : `/${market}/v1`;
}

/** Where a target goes in a deployment with markets (decision: markets). */
export type MarketRoute =
  /** `GET /markets`. */
  | { to: "list" }
  /** A market's API: the market a target names, or the default for `/v1` and `/mcp` (`byDefault`). */
  | { to: "market"; market: string; rest: string; byDefault: boolean }
  /** `/v1/...` or `/mcp` with no default market: a 404 naming the markets. */
  | { to: "no-default"; rest: string }
  /** No endpoint at all: the unknown-path 404. */
  | { to: "nowhere" };

/**
 * Routes a target (origin-form) among markets: a market's id only counts before one of its API's
 * paths (`/films/1` names no market `films`); whether that market exists is known once the index is.
 */
export function routeMarket(url: string, defaultMarket: string | undefined): MarketRoute {
  if (isMarketsList(url)) return { to: "list" };
  const { market, rest } = splitMarket(url);
  if (market !== undefined && isMarketApi(rest)) return { to: "market", market, rest, byDefault: false };
  if (!isMarketApi(url)) return { to: "nowhere" };
  if (defaultMarket === undefined) return { to: "no-default", rest: url };
  return { to: "market", market: defaultMarket, rest: url, byDefault: true };
}
