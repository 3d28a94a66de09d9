/**
 * The runtime-agnostic request core. Every request runs the same steps, each in its own file:
 * the internal path (what the gateway forwards: serve only), the health check (no key), the gate
 * (a CORS preflight; admission by key, rate limit, entitlement), serve (route and parse, then the
 * stored or composed body in the client's coding; or, for /mcp, the MCP server, whose tools ask
 * the same serve step), respond (the caller's headers), log, and usage for what passed the gate.
 */
import { randomUUID } from "node:crypto";
import type { AccessSource } from "./gate/access.js";
import { addCallerHeaders, type Caller } from "./gate/caller-headers.js";
import { addCorsHeaders, allowedOrigin, type CorsOrigins } from "./gate/cors.js";
import { errorResponse } from "./respond/error-response.js";
import { type ApiError, ServiceUnavailable, unknownEndpoint } from "./respond/errors.js";
import { headerOf, inOriginForm, type CoreRequest, type CoreResponse, type Handler } from "./exchange.js";
import { MANIFEST_FILE } from "./format/primitives/files.js";
import { PagePool } from "./format/primitives/page-buffer.js";
import { SnapshotError } from "./format/primitives/errors.js";
import type { SnapshotSource } from "./format/read/snapshot-source.js";
import type { SnapshotZones } from "./format/read/snapshot-zones.js";
import type { MarketsSource } from "./format/read/markets-source.js";
import { passGate, refusal, callerOf, type GateOptions, type GateOutcome } from "./gate/gate.js";
import { isEntitled } from "./gate/access.js";
import { checkHealth, checkMarketsHealth, isHealthCheck } from "./endpoints/health.js";
import { isMarketsList, type MarketRoute, routeMarket } from "./endpoints/market-path.js";
import {
  answerMarketsList,
  type MarketsListContext,
  servedListContext,
  servingMarket,
} from "./endpoints/markets-endpoint.js";
import { MarketPlaces, type Place } from "./respond/market-caches.js";
import { isOAuthDiscovery, noOAuth } from "./endpoints/oauth-discovery.js";
import { answerMcp, isMcpTarget, type McpAnswer } from "./endpoints/mcp-route.js";
import { coverageOf } from "./format/query/coverage.js";
import {
  CDN_CACHE_CONTROL,
  ENTITLED_MARKETS_HEADER,
  entitledMarketsOf,
  forwardedRequestId,
  GATEWAY_TOKEN_HEADER,
  isGatewayToken,
  isInternalTarget,
  parseInternalTarget,
} from "./gate/internal-path.js";
import { requestLogger, type RequestLog, type Served } from "./log/log.js";
import type { Coding } from "./respond/negotiate.js";
import { memoryRateLimiter, type RateLimiter } from "./gate/rate-limit.js";
import { finishResponse, type Outgoing } from "./respond/respond.js";
import { ResponseCache, type CacheBudgets } from "./respond/response-cache.js";
import { serve } from "./serve.js";
import { countedInMarkets } from "./usage/market.js";
import { type Settlement, settlementOf, USAGE_HEADER } from "./usage/settlement.js";
import type { UsageRecorder } from "./usage/usage-counter.js";

export type { CoreRequest, CoreResponse, Handler } from "./exchange.js";
export type { RequestLog } from "./log/log.js";

export interface CoreOptions {
  snapshots: SnapshotSource;
  access: AccessSource;
  limiter?: RateLimiter;
  now?: () => Date;
  cacheBudgets?: CacheBudgets;
  onLog?: (entry: RequestLog) => void;
  onError?: (requestId: string, error: unknown) => void;
  /** Origins allowed to call from a browser (CORS_ORIGINS); undefined: no CORS headers at all. */
  corsOrigins?: CorsOrigins;
  /** The secret the gateway proves itself with on the internal path; undefined: the path is a 404. */
  gatewaySecret?: string;
  /** Counts every request the gate decides, and settles what the gateway handed on (decision: usage). */
  usage?: UsageRecorder;
  /**
   * The folder served, when it may be a multi-market folder (the local server): while it is one, its
   * markets are served and `snapshots` is not read (decision: markets).
   */
  folder?: ServedFolder;
  /** The market `/v1` and `/mcp` serve when the folder has markets (DEFAULT_MARKET); none: they are a 404. */
  defaultMarket?: string;
}

/** A snapshot folder that may hold markets: its markets while it does, undefined while it holds one snapshot. */
export interface ServedFolder {
  readonly markets: MarketsSource | undefined;
}

/** One request on its way through the steps. */
interface Exchange {
  request: CoreRequest;
  requestId: string;
  /** When it arrived, when a log line will report its duration. */
  started: bigint | undefined;
  /**
   * Counted for usage: a request that reached the gate, or one the gateway handed on, counted under
   * the gateway's day and organization (usage/settlement.ts); its public target, within its market.
   */
  counted?: { url: string; market?: string; settles?: Settlement };
  /** The market it is served from, in a deployment with markets: the id its path names, or the default. */
  market?: string;
}

/** Whether the index in service names a market; when it cannot be read, the 503 comes after the key checks. */
function isServed(markets: MarketsSource, id: string): boolean {
  try {
    return markets.market(id) !== undefined;
  } catch {
    return true;
  }
}

export function createHandler(options: CoreOptions): Handler {
  const gate: GateOptions = {
    access: options.access,
    limiter: options.limiter ?? memoryRateLimiter(),
    now: options.now ?? (() => new Date()),
    corsOrigins: options.corsOrigins,
  };
  const cache = new ResponseCache(options.cacheBudgets);
  const pages = new PagePool();
  /** The one snapshot's place; with markets, each market's (respond/market-caches.ts). */
  const single: Place = { source: options.snapshots, cache };
  const places = new MarketPlaces(options.cacheBudgets);
  const log = requestLogger(options.onLog);

  /** The log step: one line per request. */
  function logged(
    x: Exchange,
    response: CoreResponse,
    outgoing?: Outgoing,
    organization?: string,
    named?: Pick<Served, "tool" | "key">,
  ): CoreResponse {
    const { method, url } = x.request;
    log?.write(x.started!, {
      requestId: x.requestId,
      method,
      url,
      status: response.status,
      bytes: response.body.length,
      organization,
      cache: outgoing?.cache,
      tool: named?.tool,
      key: named?.key,
    });
    const counted = x.counted;
    if (counted && options.usage) {
      const { status, body } = response;
      const { url, market, settles } = counted;
      options.usage.count({ url, market, settles, status, bytes: body.length, organization, tool: named?.tool });
    }
    return response;
  }

  function reported(x: Exchange, status: number, thrown: unknown): void {
    if (status >= 500) options.onError?.(x.requestId, thrown);
  }

  /** The conditions of the request's answer: the coding it accepts (or the one named), its entity tags. */
  function conditionsOf(x: Exchange, coding?: Coding) {
    return {
      acceptEncoding: coding ?? headerOf(x.request, "accept-encoding"),
      ifNoneMatch: headerOf(x.request, "if-none-match"),
    };
  }

  /** The serve step for a public target (within its market, if any), from its place. */
  function serveTarget(x: Exchange, url: string, coding?: Coding, place: Place = single): Outgoing {
    const request = { method: x.request.method, url, conditions: conditionsOf(x, coding) };
    return serve(request, place.source, place.cache, pages);
  }

  /** Serve, then respond with the caller's headers; `url` is the target within its market. */
  function serveAdmitted(
    x: Exchange,
    caller: Caller,
    organization: string,
    place: Place = single,
    url: string = x.request.url,
  ): CoreResponse {
    try {
      const outgoing = serveTarget(x, url, undefined, place);
      addCallerHeaders(outgoing.headers, caller);
      return logged(x, finishResponse(x.request.method, x.requestId, outgoing), outgoing, organization);
    } catch (thrown) {
      const answer = refusal(x.request.method, thrown, caller);
      reported(x, answer.status, thrown);
      return logged(x, answer, undefined, organization);
    }
  }

  /**
   * The MCP endpoint (decision: MCP), admitted: its module answers (tools ask the serve step in
   * process, identity-coded). With a caller, its headers are added; without, the gateway adds them.
   */
  function serveMcp(
    x: Exchange,
    caller?: Caller,
    organization?: string,
    place: Place = single,
    listMarkets?: () => Outgoing,
  ): Promise<CoreResponse> {
    const { request, requestId } = x;
    // Read once a request: a tool's text asks the zones for an offset a few times a record.
    let zones: SnapshotZones | undefined;
    const zonesOf = () => (zones ??= place.source.current().lists.zones);
    const answered = answerMcp({
      method: request.method,
      headers: request.headers,
      readBody: request.readBody,
      requestId,
      // With markets, the list of markets is the core's to answer (it reads them all), not a market's.
      ask: (target, listing) =>
        listMarkets && isMarketsList(target)
          ? listMarkets()
          : serve({ method: "GET", url: target, conditions: {}, listing }, place.source, place.cache, pages),
      zoneOffset: Object.assign((zone: string, t: number) => zonesOf().offsetOf(zone, t), { zones: zonesOf }),
      onError: (error) => options.onError?.(requestId, error),
      now: gate.now,
      dates: () => coverageOf(place.source.current()),
      pages,
    });
    const sent = ({ outgoing, tool }: McpAnswer) => {
      if (caller) addCallerHeaders(outgoing.headers, caller);
      return logged(x, finishResponse(request.method, caller && requestId, outgoing), outgoing, organization, { tool });
    };
    return answered.then(sent, (thrown: unknown) => {
      const outgoing = errorResponse(thrown, requestId);
      reported(x, outgoing.status, thrown);
      if (!caller) delete outgoing.headers["x-request-id"];
      return sent({ outgoing });
    });
  }

  function afterGate(x: Exchange, outcome: GateOutcome): CoreResponse | Promise<CoreResponse> {
    if (outcome.admitted && isMcpTarget(x.request.url)) return serveMcp(x, outcome.caller, outcome.organization);
    if (outcome.admitted) return serveAdmitted(x, outcome.caller, outcome.organization);
    return refused(x, outcome);
  }

  function refused(x: Exchange, outcome: Extract<GateOutcome, { admitted: false }>): CoreResponse {
    reported(x, outcome.answer.status, outcome.thrown);
    return logged(x, outcome.answer, undefined, outcome.organization, outcome.key && { key: outcome.key });
  }

  /**
   * A request to a multi-market folder (decision: markets), routed by its path (market-path.ts). The
   * gate is told the market the request is for when the index names it; a market it does not name
   * is no entitlement to check, and its 404 comes after the key checks, as any unknown path's.
   */
  function marketsRequest(x: Exchange, markets: MarketsSource): CoreResponse | Promise<CoreResponse> {
    const route = routeMarket(x.request.url, options.defaultMarket);
    const market = route.to === "market" && isServed(markets, route.market) ? route.market : undefined;
    x.counted = countedInMarkets(x.request.url, route, market);
    // The gate reads the path of a CORS preflight (MCP's differs): the path within the market.
    const request =
      route.to === "market" && x.request.method === "OPTIONS" ? { ...x.request, url: route.rest } : x.request;
    const outcome = passGate(request, x.requestId, gate, market);
    return outcome instanceof Promise
      ? outcome.then((o) => afterMarketsGate(x, o, route, markets))
      : afterMarketsGate(x, outcome, route, markets);
  }

  function afterMarketsGate(
    x: Exchange,
    outcome: GateOutcome,
    route: MarketRoute,
    markets: MarketsSource,
  ): CoreResponse | Promise<CoreResponse> {
    if (!outcome.admitted) return refused(x, outcome);
    const { caller, organization, entitlements } = outcome;
    const { method, url } = x.request;
    const entitled = (id: string) => isEntitled(entitlements, gate.now(), id);
    const context = servedListContext(markets, options.defaultMarket, entitled);
    try {
      if (route.to === "list") {
        const outgoing = answerMarketsList(method, url, conditionsOf(x), context);
        addCallerHeaders(outgoing.headers, caller);
        return logged(x, finishResponse(method, x.requestId, outgoing), outgoing, organization);
      }
      const { id, served, rest } = servingMarket(route, markets);
      x.market = id;
      const place = places.of(served.source, markets.markets().size);
      if (!isMcpTarget(rest)) return serveAdmitted(x, caller, organization, place, rest);
      return serveMcp(x, caller, organization, place, () => answerMarketsList("GET", "/markets", {}, context));
    } catch (thrown) {
      const answer = refusal(method, thrown, caller);
      reported(x, answer.status, thrown);
      return logged(x, answer, undefined, organization);
    }
  }

  /**
   * What the gateway forwards: admitted already, so served as is, with nothing that varies by
   * caller (the gateway adds that) and a 200 marked for Vercel's CDN. Errors carry the request id
   * the gateway gave and stay uncached. The target is the internal one, whose URL names the
   * coding (the answer depends on nothing but the URL), or the public one should the platform
   * hand the function the path the client asked for.
   */
  function serveInternal(x: Exchange): CoreResponse | Promise<CoreResponse> {
    const { request } = x;
    // One id per request, whatever the answer: the one the gateway gave and shows the caller.
    x.requestId = forwardedRequestId(headerOf(request, "x-request-id")) ?? x.requestId;
    const target = isInternalTarget(request.url)
      ? parseInternalTarget(request.url)
      : { snapshotId: undefined, coding: undefined, publicTarget: request.url };
    const settles = options.usage && settlementOf(headerOf(request, USAGE_HEADER));
    if (settles) x.counted = { url: target?.publicTarget ?? request.url, settles };
    try {
      // The platform may resolve dot segments of the target (/v1/%2e%2e/...) into no API path at all.
      if (!target) throw unknownEndpoint();
      const place = internalPlace(x, target.snapshotId);
      // A POST, never cached: the gateway sends MCP past the CDN (decision: MCP).
      if (isMcpTarget(target.publicTarget)) return serveMcp(x, undefined, undefined, place, listForGateway(x));
      const outgoing = serveTarget(x, target.publicTarget, target.coding, place);
      if (outgoing.status === 200) outgoing.headers["vercel-cdn-cache-control"] = CDN_CACHE_CONTROL;
      return logged(x, finishResponse(request.method, undefined, outgoing), outgoing);
    } catch (thrown) {
      const outgoing = errorResponse(thrown, x.requestId);
      delete outgoing.headers["x-request-id"];
      reported(x, outgoing.status, thrown);
      return logged(x, finishResponse(request.method, undefined, outgoing));
    }
  }

  /**
   * MCP's list of markets on a market's function (decision: markets, deployed per market): every
   * market as the bundled index says, `entitled` as the gateway decided it for the caller, so it is
   * what the gateway answers `GET /markets` with. Undefined for one snapshot, which lists its own.
   */
  function listForGateway(x: Exchange): (() => Outgoing) | undefined {
    const markets = options.folder?.markets;
    if (!markets) return undefined;
    const named = entitledMarketsOf(headerOf(x.request, ENTITLED_MARKETS_HEADER));
    const context: MarketsListContext = {
      markets: () => [...markets.markets().values()].map(({ market }) => market),
      defaultMarket: options.defaultMarket,
      entitled: (id) => named?.has(id) ?? false,
    };
    return () => {
      if (!named)
        throw new ServiceUnavailable(`the gateway named no markets (${ENTITLED_MARKETS_HEADER}): out of step`);
      return answerMarketsList("GET", "/markets", {}, context);
    };
  }

  /**
   * The snapshot the internal path names: the one snapshot, or in a multi-market folder (a market's
   * function on Vercel) the market whose snapshot id it is (decision: markets, deployed per market).
   * Any other id is a deployment out of step, as a public target with markets (it names no snapshot).
   */
  function internalPlace(x: Exchange, snapshotId: string | undefined): Place {
    const markets = options.folder?.markets;
    if (!markets) {
      if (snapshotId === undefined || snapshotId === options.snapshots.current().manifest.snapshotId) return single;
    } else {
      const all = markets.markets();
      for (const { market, source } of all.values()) {
        if (market.snapshotId !== snapshotId) continue;
        x.market = market.id;
        if (x.counted) x.counted.market = market.id;
        return places.of(source, all.size);
      }
    }
    throw new SnapshotError(MANIFEST_FILE, "is not the snapshot the gateway named (a deployment out of step)");
  }

  /**
   * A 404 answered before the gate: the internal prefix to anyone but the gateway (the API's own
   * unknown-path 404), or a place an MCP client looks for OAuth (decision: MCP).
   */
  function notAnEndpoint(x: Exchange, error: ApiError = unknownEndpoint()): CoreResponse {
    const caller = callerOf(x.request, x.requestId, options.corsOrigins);
    return logged(x, refusal(x.request.method, error, caller));
  }

  /** The health check (no key, never rate-limited), with CORS for an allowed origin. */
  function health(x: Exchange): CoreResponse {
    const { request } = x;
    let outgoing: Outgoing;
    try {
      const markets = options.folder?.markets;
      outgoing = markets ? checkMarketsHealth(request.method, markets) : checkHealth(request.method, options.snapshots);
    } catch (thrown) {
      outgoing = errorResponse(thrown, x.requestId);
      reported(x, outgoing.status, thrown);
    }
    const allowOrigin = allowedOrigin(options.corsOrigins, headerOf(request, "origin"));
    if (allowOrigin) addCorsHeaders(outgoing.headers, allowOrigin);
    return logged(x, finishResponse(request.method, x.requestId, outgoing), outgoing);
  }

  return (received) => {
    const x: Exchange = { request: inOriginForm(received), requestId: randomUUID(), started: log?.start() };
    // The header is read only when sent: hashing costs nothing on an ordinary request.
    if (isGatewayToken(headerOf(x.request, GATEWAY_TOKEN_HEADER), options.gatewaySecret)) return serveInternal(x);
    if (isInternalTarget(x.request.url)) return notAnEndpoint(x);
    if (isHealthCheck(x.request.url)) return health(x);
    if (isOAuthDiscovery(x.request.url)) return notAnEndpoint(x, noOAuth());
    x.counted = { url: x.request.url };
    const markets = options.folder?.markets;
    if (markets) return marketsRequest(x, markets);
    const outcome = passGate(x.request, x.requestId, gate);
    return outcome instanceof Promise ? outcome.then((o) => afterGate(x, o)) : afterGate(x, outcome);
  };
}
