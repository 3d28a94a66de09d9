/**
 * The gateway's routing in a deployment with markets (decision: markets, deployed per market): the
 * bundled index (`snapshot/markets.json`) names each market's snapshot id, a target is routed by its
 * path as the core routes it (`routeMarket`), the gate is told the market before anything is
 * forwarded, and an admitted request goes to the internal path of that market's snapshot id, which
 * config.json sends to that market's function. `GET /markets` it answers itself from the index, which
 * says what each market holds (no one function holds every market), as the core answers it. The 404s
 * are the core's, word for word.
 */
import { headerOf, type CoreRequest } from "../_core/exchange.js";
import type { MarketsIndex } from "../_core/format/layout/markets-index.js";
import { type MarketRoute, routeMarket } from "../_core/endpoints/market-path.js";
import { answerMarketsList, noSuchMarket } from "../_core/endpoints/markets-endpoint.js";
import type { Outgoing } from "../_core/respond/respond.js";
import { isMcpTarget } from "../_core/endpoints/mcp-path.js";
import { unknownEndpoint } from "../_core/respond/errors.js";
import { countedInMarkets } from "../_core/usage/market.js";

/** A request routed among the markets, before the gate. */
export interface MarketRouted {
  route: MarketRoute;
  /** The bundled index; undefined when it cannot be read (`problem`, the 503 after the key checks). */
  index: MarketsIndex | undefined;
  problem?: unknown;
  /** The market the gate is told: the one the path names (or the default) when the index names it. */
  market: string | undefined;
  /** What usage counts it as: the target within its market, and that market (`-` for none). */
  counted: { url: string; market: string };
}

/**
 * Routes a target among the markets `read` names; undefined when the deployment serves one snapshot
 * (`read` gives no index). An index that cannot be read names every market the path asks for, so
 * the key checks come first, as in the core.
 */
export function routeAmongMarkets(
  url: string,
  read: () => MarketsIndex | undefined,
  defaultMarket: string | undefined,
): MarketRouted | undefined {
  let index: MarketsIndex | undefined;
  let problem: unknown;
  try {
    index = read();
    if (index === undefined) return undefined;
  } catch (error) {
    problem = error;
  }
  const route = routeMarket(url, defaultMarket);
  const named = route.to === "market" && (index === undefined || index.markets.some((m) => m.id === route.market));
  const market = named ? (route as { market: string }).market : undefined;
  return { route, index, problem, market, counted: countedInMarkets(url, route, market) };
}

/** Where an admitted request goes: its market's snapshot id and the target within it. */
export interface MarketForward {
  snapshotId: string;
  rest: string;
}

/** The bundled index's markets; throws its problem (a 503) when it cannot be read. */
function indexedMarkets(routed: MarketRouted): MarketsIndex["markets"] {
  if (routed.index === undefined) throw routed.problem;
  return routed.index.markets;
}

/**
 * `GET /markets`, admitted (decision: markets): composed from the bundled index for this caller, by
 * the core's own composer, so its bytes and entity tag are the core's; `entitled` is the gate's
 * decision per market. Throws as the core's does (405, 400, the index's 503).
 */
export function answerMarketsIndex(
  routed: MarketRouted,
  request: CoreRequest,
  defaultMarket: string | undefined,
  entitled: (market: string) => boolean,
): Outgoing {
  const conditions = {
    acceptEncoding: headerOf(request, "accept-encoding"),
    ifNoneMatch: headerOf(request, "if-none-match"),
  };
  const context = { markets: () => indexedMarkets(routed), defaultMarket, entitled };
  return answerMarketsList(request.method, request.url, conditions, context);
}

/**
 * The markets the caller may use, named on a forwarded MCP message (ENTITLED_MARKETS_HEADER), so a
 * market's function answers `list_markets` as the gateway answers `GET /markets`.
 */
export function entitledMarketIds(routed: MarketRouted, entitled: (market: string) => boolean): string {
  return indexedMarkets(routed)
    .filter((market) => entitled(market.id))
    .map((market) => market.id)
    .join(",");
}

/**
 * The internal destination of an admitted request; throws the unknown-path 404, the index's problem
 * (a 503), or the 404 naming the markets (no default, or no such market). The list of markets is
 * never forwarded: the gateway answers it (answerMarketsIndex).
 */
export function marketForward(routed: MarketRouted): MarketForward {
  const { route } = routed;
  if (route.to === "nowhere" || route.to === "list") throw unknownEndpoint();
  const markets = indexedMarkets(routed);
  const found = route.to === "market" ? markets.find((m) => m.id === route.market) : undefined;
  if (!found) {
    const asked = route.to === "market" && !route.byDefault ? route.market : undefined;
    throw noSuchMarket(
      asked,
      markets.map((m) => m.id),
      isMcpTarget(route.rest),
    );
  }
  return { snapshotId: found.snapshotId, rest: route.rest };
}
