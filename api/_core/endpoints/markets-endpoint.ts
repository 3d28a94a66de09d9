/**
 * `GET /markets` (decision: markets): every market the deployment serves, what each covers, and
 * whether the calling key may use it. It takes no query parameters. Without markets it is a route
 * like the others (routes.ts), answered from the one snapshot: one entry, its id null, at `/v1`,
 * which every admitted key may use. With markets it is answered at the origin (answerMarketsList)
 * from the folder's index, which says what each market holds, and the caller's entitlements: by the
 * request core, and on Vercel by the gateway (and by a market's function for MCP's list_markets),
 * alike; a market's own snapshot never answers it, so `/gb/markets` is no endpoint.
 */
import { composeMarkets, type MarketEntry, marketEntry, summarizeSnapshot } from "../compose/compose-markets.js";
import { type IndexedMarket, requireSummary } from "../format/layout/markets-index.js";
import { SnapshotError } from "../format/primitives/errors.js";
import { coverageOf } from "../format/query/coverage.js";
import type { MarketsSource, ServedMarket } from "../format/read/markets-source.js";
import { contentTag } from "../respond/body-tag.js";
import { ApiError, requireReadMethod, unknownEndpoint } from "../respond/errors.js";
import { type Conditions, type Outgoing, sendBody } from "../respond/respond.js";
import { encoded } from "../respond/response-cache.js";
import type { MarketRoute } from "./market-path.js";
import { isMcpTarget } from "./mcp-path.js";
import type { ParameterTable } from "./parameters/parameter.js";
import { parseTableQuery } from "./parse-request.js";
import type { RouteEndpoint } from "./path-ids.js";

/** It takes none: any is a 400 naming it. */
export const MARKETS_PARAMETERS: ParameterTable = [];

/** The route's endpoint: the one market of a snapshot without markets; inside a market's snapshot, a 404. */
export const marketsEndpoint: RouteEndpoint = (route) => ({
  answer(_, rawQuery, serving) {
    if (serving.snapshot.manifest.market) throw unknownEndpoint();
    parseTableQuery(route.table, rawQuery);
    const { snapshot } = serving;
    const market = { id: null, name: null, countries: coverageOf(snapshot).countries };
    const entry = marketEntry({ market, summary: summarizeSnapshot(snapshot), isDefault: true, entitled: true });
    // The same bytes for every caller: every admitted key may use the one market.
    return serving.composed("markets", (out) => out.text(composeMarkets([entry]).toString("utf8")));
  },
});

/** What the list of a multi-market folder is made of, for one caller. */
export interface MarketsListContext {
  /** The index's markets, in its order; throws SnapshotError while the index cannot be read. */
  markets: () => readonly IndexedMarket[];
  /** The market `/v1` serves, if any. */
  defaultMarket: string | undefined;
  /** Whether the caller's organization may use a market now (the gate's decision for it). */
  entitled: (market: string) => boolean;
  /**
   * Whether a market's snapshot can be read now, where that is known: the local server holds every
   * market. The gateway and a market's function do not, and list each market as the index says.
   */
  isReadable?: (market: string) => boolean;
}

/** A market's entry: what the index says it holds, null while its snapshot is known to be unreadable. */
function entryOf(market: IndexedMarket, context: MarketsListContext): MarketEntry {
  const summary = requireSummary(market);
  return marketEntry({
    market,
    summary: (context.isReadable?.(market.id) ?? true) ? summary : undefined,
    isDefault: market.id === context.defaultMarket,
    entitled: context.entitled(market.id),
  });
}

/**
 * `GET /markets` of a multi-market folder: composed per request (the entries depend on the key), its
 * entity tag the bytes' digest; a 503 when the index cannot be read or does not say what the markets
 * hold (one of format 1).
 */
export function answerMarketsList(
  method: string,
  url: string,
  conditions: Conditions,
  context: MarketsListContext,
): Outgoing {
  requireReadMethod(method);
  const queryAt = url.indexOf("?");
  parseTableQuery(MARKETS_PARAMETERS, queryAt === -1 ? "" : url.slice(queryAt + 1));
  const body = composeMarkets(context.markets().map((market) => entryOf(market, context)));
  const cached = { etag: contentTag(body), identity: body };
  return sendBody(cached, conditions, "composed", (coding) => encoded(cached, coding));
}

/**
 * The list's context on a server holding the whole folder (the local server): the index in service,
 * and a market whose snapshot cannot be opened now listed with what it holds null.
 */
export function servedListContext(
  markets: MarketsSource,
  defaultMarket: string | undefined,
  entitled: (market: string) => boolean,
): MarketsListContext {
  const isReadable = (id: string) => {
    try {
      markets.market(id)?.source.current();
      return true;
    } catch (error) {
      if (error instanceof SnapshotError) return false;
      throw error;
    }
  };
  return {
    markets: () => [...markets.markets().values()].map(({ market }) => market),
    defaultMarket,
    entitled,
    isReadable,
  };
}

/** How much of a 404's message the markets' addresses may take: the whole message is at most 300 characters. */
const ADDRESSES_LENGTH = 160;

/** The markets' addresses of one kind (`/gb/v1` or `/gb/mcp`), as many as fit, then how many more. */
function addressesOf(ids: readonly string[], mcp: boolean): string {
  const shown: string[] = [];
  let length = 0;
  for (const id of ids) {
    const address = mcp ? `/${id}/mcp` : `/${id}/v1`;
    if (shown.length > 0 && length + address.length + 2 > ADDRESSES_LENGTH) break;
    shown.push(address);
    length += address.length + 2;
  }
  const more = ids.length - shown.length;
  return more > 0 ? `${shown.join(", ")} and ${more} more` : shown.join(", ");
}

/**
 * The 404 of a market API target no market serves (decision: markets): a market id the deployment
 * does not have (`asked`), or `/v1` and `/mcp` with no default market; it names where the markets are.
 */
export function noSuchMarket(asked: string | undefined, ids: readonly string[], mcp: boolean): ApiError {
  const where = `${ids.length === 1 ? "its market is at" : "its markets are at"} ${addressesOf(ids, mcp)}`;
  const message =
    asked === undefined
      ? `This deployment serves markets, each at its own address, and ${mcp ? "/mcp" : "/v1"} serves none of them: ` +
        `${where} (GET /markets lists them).`
      : `No market has the id ${JSON.stringify(asked)}: ${where} (GET /markets lists them).`;
  return new ApiError(404, "not_found", message);
}

/**
 * The market a routed request is served from, and the target within it; throws the unknown-path 404
 * for a target no market's API has, or the 404 naming the markets (no default, or no such market).
 */
export function servingMarket(
  route: Exclude<MarketRoute, { to: "list" }>,
  markets: MarketsSource,
): { id: string; served: ServedMarket; rest: string } {
  if (route.to === "nowhere") throw unknownEndpoint();
  const served = route.to === "market" ? markets.market(route.market) : undefined;
  if (route.to === "no-default" || !served) {
    const asked = route.to === "market" && !route.byDefault ? route.market : undefined;
    throw noSuchMarket(asked, [...markets.markets().keys()], isMcpTarget(route.rest));
  }
  return { id: route.market, served, rest: route.rest };
}
